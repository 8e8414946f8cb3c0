// The UI kit both apps use: the theme, the one status badge, the error, empty and loading states,
// cards, tables and lists, the secret shown once, forms and the license bits. Display rules without React live in the contract.
export * from './accent';
export * from './api-error';
export * from './brand-icon';
export * from './brand-logo';
export * from './card-header';
export * from './centered-page';
export * from './empty-state';
export * from './error-display';
export * from './field-errors';
export * from './form/use-schema-form';
export * from './license-bits';
export * from './link-sent';
export * from './list-card';
export * from './secret-shown-once';
export * from './section-card';
export * from './skeletons';
export * from './status-badge';
export * from './table-card';
export * from './theme';
export * from './use-focus-on-arrival';
export { default as shellClasses } from './shell.module.css';
export { default as licenseTextClasses } from './license-bits.module.css';

export * from './users';
export * from './audit';
export * from './outbox';
export * from './billing';
export * from './licenses';
export * from './files';
export * from './staff';
export * from './console-rollups';

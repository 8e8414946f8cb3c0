import { z } from 'zod';
import { int, optionalString, url } from './env-parsers';

/** The vendor's name, look and product in the portal and e-mails, and how customers reach support. */
export const BrandEnvSchema = z.object({
  BRAND_NAME: z.string().default('Customer Portal'),
  BRAND_LOGO_URL: optionalString,
  BRAND_ACCENT_COLOR: z
    .string()
    .regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb, for example #3d52d2')
    .default('#3d52d2'),
  DOCS_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://docs.example.com'),
  PRODUCT_NAME: z.string().default('PCE'),
  SUPPORT_EMAIL: z.string().default('support@example.com'),
  SUPPORT_PHONE: z.string().default('+1 555 0100'),
  STATUS_PAGE_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://status.example.com'),
  KNOWLEDGE_BASE_URL: url(['http:', 'https:']).transform((v) => v ?? 'https://docs.example.com/kb'),
  PREMIUM_SUPPORT_MIN_NODES: int(10, 1),
  SUPPORT_HOURS: z.string().default('Monday to Friday, 9:00 to 17:00 CET, except public holidays'),
  SUPPORT_PORTAL_URL: url(['http:', 'https:']),
});
type BrandEnv = z.output<typeof BrandEnvSchema>;

export function brandSettings(e: BrandEnv) {
  return {
    brand: {
      name: e.BRAND_NAME,
      logoUrl: e.BRAND_LOGO_URL,
      /** The e-mails' accent (buttons, the brand mark); the web app's is VITE_ACCENT_COLOR. */
      accentColor: e.BRAND_ACCENT_COLOR,
      docsUrl: e.DOCS_URL,
      productName: e.PRODUCT_NAME,
    },
    support: {
      email: e.SUPPORT_EMAIL,
      phone: e.SUPPORT_PHONE,
      statusPageUrl: e.STATUS_PAGE_URL,
      knowledgeBaseUrl: e.KNOWLEDGE_BASE_URL,
      premiumMinNodes: e.PREMIUM_SUPPORT_MIN_NODES,
      hours: e.SUPPORT_HOURS,
      portalUrl: e.SUPPORT_PORTAL_URL,
    },
  };
}

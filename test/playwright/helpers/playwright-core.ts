// playwright-core is a dependency of packages/playwright, not of the workspace root, so the
// tests load it from there (a bare import would not resolve from test/).
import playwrightCore from '../../../packages/playwright/node_modules/playwright-core/index.js';

export const { chromium } = playwrightCore;
export type {
  Browser,
  BrowserContext,
  Page,
  Response,
} from '../../../packages/playwright/node_modules/playwright-core/index.js';

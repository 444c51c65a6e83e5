// playwright-core is CommonJS: its default import is the module's exports.
import playwrightCore from 'playwright-core';

export const { chromium } = playwrightCore;
export type { Browser, BrowserContext, Page, Response } from 'playwright-core';

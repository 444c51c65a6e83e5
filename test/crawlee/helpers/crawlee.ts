// Crawlee is a dependency of packages/crawlee, not of the workspace root, so the tests load it
// from there (a bare import would not resolve from test/). The packages are CommonJS: their
// default import is the module's exports.
import cheerio from '../../../packages/crawlee/node_modules/@crawlee/cheerio/index.js';
import core from '../../../packages/crawlee/node_modules/@crawlee/core/index.js';
import http from '../../../packages/crawlee/node_modules/@crawlee/http/index.js';
import playwright from '../../../packages/crawlee/node_modules/@crawlee/playwright/index.js';

export const { CheerioCrawler, createCheerioRouter } = cheerio;
export const { Configuration, RequestQueue, RequestList, log } = core;
export const { HttpCrawler } = http;
export const { PlaywrightCrawler } = playwright;
export type { Configuration as ConfigurationType } from '../../../packages/crawlee/node_modules/@crawlee/core/index.js';

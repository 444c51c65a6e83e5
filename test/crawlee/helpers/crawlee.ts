// The Crawlee packages are CommonJS: their default import is the module's exports.
import cheerio from '@crawlee/cheerio';
import core from '@crawlee/core';
import http from '@crawlee/http';
import playwright from '@crawlee/playwright';

export const { CheerioCrawler, createCheerioRouter } = cheerio;
export const { Configuration, RequestQueue, RequestList, log } = core;
export const { HttpCrawler } = http;
export const { PlaywrightCrawler } = playwright;
export type { Configuration as ConfigurationType } from '@crawlee/core';
export type { HttpCrawlerOptions } from '@crawlee/http';

/** Types of site.mjs for the TypeScript smoke programs. */
export declare const ROBOTS_TXT: string;
export interface Site {
  readonly origin: string;
  /** Every path the site was asked for, in order. */
  readonly requested: string[];
  close(): Promise<void>;
}
export declare function startSite(): Promise<Site>;

/**
 * A small, strict date reader for `unavailable_after`: RFC 850, RFC 1123 / RFC 822, asctime,
 * ISO 8601 and the forms servers write by hand (`25 Jun 2010 15:00:00 PST`, `June 25, 2010`).
 * Zone names are looked up in a fixed table, never guessed by `Date.parse`.
 */

const MAX_DATE_CHARS = 128;

const MONTHS: ReadonlyMap<string, number> = new Map([
  ['jan', 1],
  ['january', 1],
  ['feb', 2],
  ['february', 2],
  ['mar', 3],
  ['march', 3],
  ['apr', 4],
  ['april', 4],
  ['may', 5],
  ['jun', 6],
  ['june', 6],
  ['jul', 7],
  ['july', 7],
  ['aug', 8],
  ['august', 8],
  ['sep', 9],
  ['sept', 9],
  ['september', 9],
  ['oct', 10],
  ['october', 10],
  ['nov', 11],
  ['november', 11],
  ['dec', 12],
  ['december', 12],
]);

const WEEKDAYS: ReadonlySet<string> = new Set([
  'mon',
  'monday',
  'tue',
  'tues',
  'tuesday',
  'wed',
  'wednesday',
  'thu',
  'thur',
  'thurs',
  'thursday',
  'fri',
  'friday',
  'sat',
  'saturday',
  'sun',
  'sunday',
]);

/** Offsets in minutes east of UTC. US zones as the US reads them (`CST` = US Central). */
const ZONES: ReadonlyMap<string, number> = new Map([
  ['z', 0],
  ['ut', 0],
  ['utc', 0],
  ['gmt', 0],
  ['est', -300],
  ['edt', -240],
  ['cst', -360],
  ['cdt', -300],
  ['mst', -420],
  ['mdt', -360],
  ['pst', -480],
  ['pdt', -420],
  ['akst', -540],
  ['akdt', -480],
  ['hst', -600],
  ['hdt', -540],
  ['cet', 60],
  ['cest', 120],
]);

/** The zone abbreviations {@link parseRobotsDate} understands (lower-case). */
export const ROBOTS_DATE_ZONES: readonly string[] = Object.freeze([...ZONES.keys()]);

/** Whether `word` (any case) is an English month or weekday name or abbreviation. */
export function isDateWord(word: string): boolean {
  const w = word.toLowerCase();
  return MONTHS.has(w) || WEEKDAYS.has(w);
}

// Every form names its parts alike (year, month, day, hour, minute, second, fraction, meridiem,
// zone), so that one reader builds the date from any of them; `month` is a number or a name.
const TIME = String.raw`(?<hour>\d{1,2}):(?<minute>\d{2})(?::(?<second>\d{2})(?:[.,](?<fraction>\d{1,9}))?)?(?:\s*(?<meridiem>[AaPp])\.?[Mm]\.?)?`;
const ZONE = String.raw`(?:\s*(?<zone>\S.*))?$`;
/** ISO 8601: a year of four digits, or the expanded six with a sign, as `toISOString` writes it. */
const ISO = new RegExp(
  String.raw`^(?<year>\d{4}|[+-]\d{6})-(?<month>\d{2})-(?<day>\d{2})(?:[Tt ]${TIME})?${ZONE}`,
);
/** ISO 8601's basic format: no separators (`20100625`, `20100625T150000Z`). */
const ISO_BASIC =
  /^(?<year>\d{4})(?<month>\d{2})(?<day>\d{2})(?:[Tt](?<hour>\d{2})(?<minute>\d{2})(?:(?<second>\d{2})(?:[.,](?<fraction>\d{1,9}))?)?)?(?:\s*(?<zone>\S.*))?$/;
/** The forms with a month name, tried after a leading weekday is dropped. */
const NAMED_MONTH = [
  // `25 Jun 2010 15:00:00 PST`, RFC 850's `25-Jun-10`
  new RegExp(
    String.raw`^(?<day>\d{1,2})[\s-]+(?<month>[A-Za-z]+)\.?[\s-]+(?<year>\d{4}|\d{2})(?:[\s,]+${TIME})?${ZONE}`,
  ),
  // `June 25, 2010 3:00 pm EST`
  new RegExp(
    String.raw`^(?<month>[A-Za-z]+)\.?\s+(?<day>\d{1,2})(?:st|nd|rd|th)?,?\s+(?<year>\d{4})(?:[\s,]+${TIME})?${ZONE}`,
  ),
  // asctime, and the Unix `date` form with a zone before the year (`Fri Jun 25 15:00:00 PST 2010`)
  new RegExp(
    String.raw`^(?<month>[A-Za-z]+)\s+(?<day>\d{1,2})\s+${TIME}(?:\s+(?<zone>[A-Za-z]+|[+-]\d{2}:?\d{2}))?\s+(?<year>\d{4})$`,
  ),
];

/** The named parts of a match (see `TIME`). */
type Parts = Partial<
  Record<
    'year' | 'month' | 'day' | 'hour' | 'minute' | 'second' | 'fraction' | 'meridiem' | 'zone',
    string
  >
>;

/**
 * Parses an `unavailable_after` date. Accepted: RFC 1123 (`Fri, 25 Jun 2010 15:00:00 GMT`),
 * RFC 850 (`Friday, 25-Jun-10 15:00:00 PST`), asctime (`Fri Jun 25 15:00:00 2010`, and with a
 * zone before the year as the Unix `date` command writes it: `Fri Jun 25 15:00:00 PST 2010`),
 * `25 Jun 2010 15:00:00 PST`, `June 25, 2010 3:00 pm EST`, ISO 8601 (`2010-06-25`,
 * `2010-06-25T15:00:00-08:00`, and the expanded years `toISOString` writes outside 0000–9999:
 * `+275760-09-13T00:00:00.000Z`; the basic format `20100625T150000Z`). Zones: `Z`, `UT`,
 * `UTC`, `GMT`, US zones (`EST` … `PDT`, `AKST`, `HST`), `CET`, `CEST`, numeric `±hh:mm` /
 * `±hhmm` (also after `GMT`/`UTC`). No zone means UTC. Two-digit years: 70–99 → 19xx, 00–69 →
 * 20xx. Returns `undefined` for anything else (never throws, never consults `Date.parse`).
 *
 * @example
 * ```ts
 * parseRobotsDate('25 Jun 2010 15:00:00 PST')?.toISOString(); // '2010-06-25T23:00:00.000Z'
 * parseRobotsDate('someday'); // undefined
 * ```
 */
export function parseRobotsDate(text: string): Date | undefined {
  let t = text.trim();
  if (t.length === 0 || t.length > MAX_DATE_CHARS) return undefined;
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0])
    t = t.slice(1, -1).trim();
  const parts = splitParts(t);
  return parts === undefined ? undefined : build(parts);
}

function splitParts(t: string): Parts | undefined {
  const iso = ISO.exec(t) ?? ISO_BASIC.exec(t);
  // ISO 8601 and ECMAScript: year zero is 0000.
  if (iso !== null) return iso.groups?.['year'] === '-000000' ? undefined : iso.groups;
  // A leading weekday carries no information: drop it (with its comma).
  const weekday = /^([A-Za-z]+)\.?\s*,?\s*/.exec(t);
  if (weekday?.[1] !== undefined && WEEKDAYS.has(weekday[1].toLowerCase())) {
    t = t.slice(weekday[0].length);
  }
  for (const form of NAMED_MONTH) {
    const m = form.exec(t);
    if (m !== null) return m.groups;
  }
  return undefined;
}

/** Minutes east of UTC, or `undefined` when the zone is not understood. */
function zoneOffset(zone: string | undefined): number | undefined {
  if (zone === undefined) return 0;
  let z = zone.trim().toLowerCase();
  if (z.startsWith('(') && z.endsWith(')')) z = z.slice(1, -1).trim();
  const named = ZONES.get(z);
  if (named !== undefined) return named;
  const m = /^(?:gmt|utc|ut)?\s*([+-])(\d{2}):?(\d{2})?$/.exec(z);
  if (!m) return undefined;
  const hours = Number(m[2]);
  const minutes = Number(m[3] ?? '0');
  if (hours > 23 || minutes > 59) return undefined;
  return (m[1] === '-' ? -1 : 1) * (hours * 60 + minutes);
}

function build(p: Parts): Date | undefined {
  const digits = p.year ?? '';
  // Two-digit years (RFC 850): 70–99 → 19xx, 00–69 → 20xx.
  const short = digits.length === 2 ? Number(digits) : undefined;
  const year = short === undefined ? Number(digits) : short + (short < 70 ? 2000 : 1900);
  const month = /^\d+$/.test(p.month ?? '')
    ? Number(p.month)
    : (MONTHS.get((p.month ?? '').toLowerCase()) ?? 0);
  const day = Number(p.day);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  let hour = p.hour === undefined ? 0 : Number(p.hour);
  const minute = p.minute === undefined ? 0 : Number(p.minute);
  let second = p.second === undefined ? 0 : Number(p.second);
  const ms = p.fraction === undefined ? 0 : Number(p.fraction.slice(0, 3).padEnd(3, '0'));
  if (p.meridiem !== undefined) {
    if (hour < 1 || hour > 12) return undefined;
    hour = (hour % 12) + (p.meridiem.toLowerCase() === 'p' ? 12 : 0);
  }
  if (minute > 59 || second > 60) return undefined;
  if (second === 60) second = 59; // a leap second: the last representable instant
  if (hour > 24 || (hour === 24 && (minute !== 0 || second !== 0 || ms !== 0))) return undefined;
  const offset = zoneOffset(p.zone);
  if (offset === undefined) return undefined;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute - offset, second, ms);
  return Number.isNaN(date.getTime()) ? undefined : date;
}

function daysInMonth(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return month === 4 || month === 6 || month === 9 || month === 11 ? 30 : 31;
}

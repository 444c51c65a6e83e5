/** The brand every error of this package carries (any copy of it: `Symbol.for` is global). */
const ANY_BRAND: unique symbol = Symbol.for('polite-crawler.error') as never;

/**
 * The brand of one error class: the same symbol in every copy of this package.
 * @example
 * static override readonly brand = errorBrand('RobotsDeniedError');
 */
export function errorBrand(name: string): symbol {
  return Symbol.for(`polite-crawler.${name}`);
}

/** What a subclass passes to the base besides its message: its fields, and an optional `cause`. */
type ErrorFields = Readonly<Record<string, unknown>> & { readonly cause?: unknown };

// A mixin's constructor must take `any[]` (TS2545); the subclasses type their own.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ErrorClass = new (...args: any[]) => Error;

/**
 * The one place the brand, guard and `instanceof` logic lives, over `Error` or `TypeError` (as
 * fetch's own failures are). `instanceof` and the guards check the class's static `brand`, so
 * they also recognise an error from another copy of this package (as undici's errors do).
 */
function branded<B extends ErrorClass>(Base: B) {
  abstract class Branded extends Base {
    /** The brand of this class's instances; each concrete class names its own. */
    static readonly brand: symbol = ANY_BRAND;
    /** A stable `ERR_ROBOTS_*` code. */
    abstract readonly code: string;

    /**
     * `(message, fields)`: every field of the init object becomes a property of the error, but
     * `cause`, which is the standard `Error` cause. Subclasses declare their fields (`declare
     * readonly url: string`) and build the message; nothing else is written per class.
     */
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    constructor(...args: any[]) {
      const [message, fields = {}] = args as [string, ErrorFields?];
      const { cause, ...properties } = fields;
      super(message, ...(cause === undefined ? [] : [{ cause }]));
      Object.assign(this, properties);
      Object.defineProperty(this, ANY_BRAND, { value: true });
      const own = (new.target as unknown as { brand: symbol }).brand;
      if (own !== ANY_BRAND) Object.defineProperty(this, own, { value: true });
    }

    /** `value instanceof X` when `value` carries X's brand, whichever copy made it. */
    static override [Symbol.hasInstance](this: { brand: symbol }, value: unknown): boolean {
      return (
        typeof value === 'object' &&
        value !== null &&
        (value as Record<symbol, unknown>)[this.brand] === true
      );
    }
  }
  // Typed as its subclasses call it (a mixin's own constructor type is its base's).
  return Branded as unknown as BrandedClass<InstanceType<B>>;
}

/** A branded error base class, as {@link branded} returns it. */
type BrandedClass<E extends Error> = (abstract new (
  message: string,
  fields: ErrorFields,
) => E & { readonly code: string }) & { readonly brand: symbol };

/**
 * The base of every error this package throws: `error instanceof PoliteError` is true for any
 * of them, from any copy of the package.
 * @example
 * if (error instanceof PoliteError) console.log(error.code);
 */
export const PoliteError = branded(Error);
/** {@link PoliteError} for the errors that are `TypeError`s, as fetch's own are. */
export const PoliteTypeError = branded(TypeError);

/**
 * A type guard from a branded class (the same test as `instanceof`).
 * @example
 * export const isRobotsDeniedError = guardOf(RobotsDeniedError);
 */
export function guardOf<T>(
  type: abstract new (...args: never[]) => T,
): (value: unknown) => value is T {
  return (value: unknown): value is T => value instanceof type;
}

/**
 * A request method in upper case. A GET, most requests, is returned as it is: `toUpperCase`
 * calls into the engine's runtime, on every request otherwise.
 * @example
 * upperCaseMethod('post'); // 'POST'
 */
export function upperCaseMethod(method: string): string {
  return method === 'GET' ? method : method.toUpperCase();
}

// Imports the built @polite-crawler/fetch entry the way a user's program does, and prints what
// the import did as one JSON line (fetch-node-version.test.ts runs it on an older Node).
import console from 'node:console';
import process from 'node:process';

const entry = process.argv[2];
try {
  await import(entry);
  console.log(JSON.stringify({ loaded: true }));
} catch (error) {
  console.log(
    JSON.stringify({
      loaded: false,
      name: error?.name,
      code: error?.code,
      message: error?.message,
      running: error?.running,
      required: error?.required,
      stack: String(error?.stack ?? ''),
    }),
  );
}

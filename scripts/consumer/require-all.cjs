'use strict';
// A CommonJS project (what `npm init -y` writes) loading every installed @polite-crawler package
// and each of its exported subpaths with require(): Node >= 20.19 loads an ES module from
// require() when the export map lets it. require() and import() must give the same module
// instance, so that a mixed CommonJS/ESM program has one policy, one cache, one error class.
const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const { join } = require('node:path');

const project = JSON.parse(readFileSync(join(__dirname, 'package.json'), 'utf8'));
const names = Object.keys(project.dependencies).filter((name) =>
  name.startsWith('@polite-crawler/'),
);

async function main() {
  const loaded = [];
  for (const name of names) {
    const manifest = require(`${name}/package.json`);
    for (const subpath of Object.keys(manifest.exports)) {
      if (subpath === './package.json' || subpath.includes('*')) continue;
      const specifier = name + subpath.slice(1);
      const required = require(specifier);
      assert.ok(Object.keys(required).length > 0, `${specifier}: require() gave no exports`);
      assert.equal(
        required,
        await import(specifier),
        `${specifier}: require() and import() differ`,
      );
      loaded.push(specifier);
    }
  }

  const { createPoliteFetch, isRobotsDeniedError } = require('@polite-crawler/fetch');
  const { startSite } = require('./site.mjs');
  const site = await startSite();
  const politeFetch = createPoliteFetch({ userAgent: 'ExampleBot/1.0', minInterval: 0 });
  try {
    const page = await politeFetch(`${site.origin}/a`);
    assert.equal(page.robots.nosnippet, true);
    await page.text();
    await assert.rejects(politeFetch(`${site.origin}/private/x`), (error) =>
      isRobotsDeniedError(error),
    );
    assert.ok(!site.requested.includes('/private/x'), 'the refused URL was requested');
  } finally {
    await politeFetch.close();
    await site.close();
  }
  console.log(`ok require: ${loaded.join(', ')}; a polite fetch through require() works`);
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});

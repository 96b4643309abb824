'use strict';
// The web lab's page in a fresh headless Chromium: served from build/web with gzip, navigated to, and read
// through the probe (src/apps/web/probe.cpp) with Module.ccall.
const fs = require('node:fs');
const path = require('node:path');

const {withChromium, waitFor} = require('./cdp');
const {serve} = require('./serve');

// A probe function's call as a page expression.
function call(name, returnType = 'number', argTypes = [], args = []) {
  return `Module.ccall(${JSON.stringify(name)}, ${JSON.stringify(returnType)}, ${JSON.stringify(argTypes)}, ` +
         `${JSON.stringify(args)})`;
}

class LabPage {
  constructor(page) {
    this.page = page;
  }
  probe(name, returnType, argTypes, args) {
    return this.page.evaluate(call(name, returnType, argTypes, args));
  }
  frames() {
    return this.probe('netcube_probe_frames');
  }
  async history(since) {
    return JSON.parse(await this.probe('netcube_probe_history', 'string', ['number'], [since]));
  }
  now() {
    return this.page.evaluate('performance.now()');
  }
  // Waits until the page's clock has moved `ms` on (the page's time, not the test's).
  async waitPageTime(ms, what) {
    const until = (await this.now()) + ms;
    await waitFor(what, async () => (await this.now()) >= until, {timeoutMs: ms + 20000, intervalMs: 50});
  }
  // The page's errors so far (exceptions, a failed load's message).
  problems() {
    return this.page.exceptions;
  }
}

// Serves `webDir`, opens it in Chromium at width x height and waits for the lab's first frame; then runs
// `body(lab, {server, page, firstFrameMs})`. Chromium and the server are stopped afterwards, always.
async function withLabPage(webDir, {width = 1280, height = 720} = {}, body) {
  for (const file of ['index.html']) {
    if (!fs.existsSync(path.join(webDir, file))) {
      throw new Error(`no ${file} in ${webDir}: build the page first (scripts/web.sh --build-only)`);
    }
  }
  const server = await serve(webDir);
  try {
    return await withChromium({width, height}, async ({page}) => {
      const lab = new LabPage(page);
      await page.navigate(server.url);
      await waitFor('the lab\'s first frame', async () => {
        if (page.exceptions.length > 0) throw new Error(`the page failed: ${page.exceptions.join('; ')}`);
        return (await page.evaluate(
                   'typeof Module === "object" && typeof Module.ccall === "function" && ' +
                   `typeof Module._netcube_probe_first_frame_ms === "function" && ` +
                   `${call('netcube_probe_first_frame_ms')} >= 0`));
      }, {timeoutMs: 60000, intervalMs: 20});
      const firstFrameMs = await lab.probe('netcube_probe_first_frame_ms');
      return await body(lab, {server, page, firstFrameMs});
    });
  } finally {
    await server.close();
  }
}

module.exports = {withLabPage, LabPage};

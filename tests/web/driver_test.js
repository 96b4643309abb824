'use strict';
// The browser tests' own harness, on a page of its own (no build needed): the gzip server, Chromium over
// the pipe, a held key seen by the page, a value read back, a screenshot decoded. A failure here is the
// harness's, not the lab's.
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {withChromium, waitFor} = require('./cdp');
const {decodePng, colourVariety} = require('./png');
const {serve} = require('./serve');

// A canvas whose square moves right while ArrowRight is held, counting its frames.
const kPage = `<!doctype html><html><body style="margin:0;background:#000">
<canvas id="c" width="640" height="360"></canvas>
<script>
window.state = {frames: 0, x: 10, held: false, keyCode: null};
addEventListener('keydown', (e) => { if (e.code === 'ArrowRight') { state.held = true; state.keyCode = e.keyCode; e.preventDefault(); } });
addEventListener('keyup', (e) => { if (e.code === 'ArrowRight') state.held = false; });
const gl = document.getElementById('c').getContext('webgl2');
window.state.webgl2 = gl !== null;
const context = document.createElement('canvas').getContext('2d');
function frame() {
  state.frames++;
  if (state.held) state.x += 2;
  const canvas = document.getElementById('c');
  if (gl) { gl.clearColor(0.1, 0.2, 0.3, 1); gl.clear(gl.COLOR_BUFFER_BIT);
            gl.enable(gl.SCISSOR_TEST); gl.scissor(state.x, 100, 40, 40); gl.clearColor(1, 0.5, 0, 1);
            gl.clear(gl.COLOR_BUFFER_BIT); gl.disable(gl.SCISSOR_TEST); }
  requestAnimationFrame(frame);
}
requestAnimationFrame(frame);
</script>
<p>${'padding '.repeat(4000)}</p></body></html>`;

async function main() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'netcube-web-driver-'));
  fs.writeFileSync(path.join(root, 'index.html'), kPage);
  const server = await serve(root);
  try {
    await withChromium({width: 800, height: 600}, async ({page}) => {
      await page.navigate(server.url);
      await waitFor('frames', async () => (await page.evaluate('state.frames')) >= 5);
      assert.equal(await page.evaluate('state.webgl2'), true, 'WebGL2 with SwiftShader');
      const before = await page.evaluate('state.x');
      await page.keyDown('ArrowRight');
      await waitFor('the square to move', async () => (await page.evaluate('state.x')) >= before + 20);
      await page.keyUp('ArrowRight');
      await waitFor('the key released', async () => !(await page.evaluate('state.held')));
      assert.equal(await page.evaluate('state.keyCode'), 39);
      const image = decodePng(await page.screenshot());
      assert.equal(image.width, 800);
      const variety = colourVariety(image);
      assert.ok(variety.colours >= 3, `the screenshot has colours: ${JSON.stringify(variety)}`);
      const html = fs.statSync(path.join(root, 'index.html')).size;
      await waitFor('the transfer counted', () => page.transferredBytes() > 0);
      assert.ok(page.transferredBytes() < html / 4, `gzip: ${page.transferredBytes()} of ${html} bytes`);
      console.log(`driver: ok, ${await page.evaluate('state.frames')} frames, ${page.transferredBytes()} bytes ` +
                  `transferred for a ${html}-byte page (server sent ${server.stats.bodyBytes})`);
    });
  } finally {
    await server.close();
    fs.rmSync(root, {recursive: true, force: true});
  }
}

main().catch((error) => {
  console.error(`driver_test: ${error.stack || error}`);
  process.exitCode = 1;
});

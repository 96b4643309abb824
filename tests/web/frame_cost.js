'use strict';
// Where a frame of the web lab goes (docs/BENCHMARKS.md, "The lab in a browser"): the lab's page and a blank
// WebGL 2 page that only clears its 1280x720 canvas every frame, each in a fresh headless Chromium (the
// flags of cdp.js), measured in turns. For each: frames a second, and the CPU time a frame of each Chromium
// process (from /proc: the GPU process runs SwiftShader, the renderer runs the page's JavaScript and wasm).
//   node tests/web/frame_cost.js BUILD_WEB_DIR [ROUNDS] [CHROMIUM_FLAG...]
// Flags after ROUNDS are added to Chromium's (e.g. --disable-gpu-compositing: the compositor in software).
// A measurement, not a test: run it on a quiet machine and note `uptime` beside its figures.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {withChromium, waitFor} = require('./cdp');
const {serve} = require('./serve');

const kWindowMs = 4000;
const kBlankPage = `<!doctype html><html><head><style>html, body { margin: 0; height: 100%; overflow: hidden; }
canvas { position: fixed; inset: 0; width: 100vw; height: 100vh; display: block; }</style></head>
<body><canvas id="canvas"></canvas><script>
const canvas = document.getElementById('canvas');
canvas.width = innerWidth * devicePixelRatio;
canvas.height = innerHeight * devicePixelRatio;
const gl = canvas.getContext('webgl2', {alpha: false, antialias: false});
window.frames_drawn = 0;
(function frame() {
  gl.clearColor((window.frames_drawn++ % 60) / 60, 0.1, 0.2, 1);
  gl.clear(gl.COLOR_BUFFER_BIT);
  requestAnimationFrame(frame);
})();
</script></body></html>
`;

// CPU time (ms) so far of every process under `pid`, summed by Chromium's --type (the browser has none).
function cpuMsByProcessType(pid) {
  const children = new Map();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const parent = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      children.set(parent, [...(children.get(parent) || []), Number(entry)]);
    } catch (error) {
      // Gone meanwhile.
    }
  }
  const ticksPerMs = 100 / 1000;  // USER_HZ
  const totals = {};
  for (const stack = [pid]; stack.length > 0;) {
    const child = stack.pop();
    stack.push(...(children.get(child) || []));
    try {
      const commandLine = fs.readFileSync(`/proc/${child}/cmdline`, 'utf8');
      const type = (commandLine.match(/--type=([a-z-]+)/) || [])[1] || 'browser';
      const fields = fs.readFileSync(`/proc/${child}/stat`, 'utf8');
      const [utime, stime] = fields.slice(fields.lastIndexOf(')') + 2).split(' ').slice(11, 13).map(Number);
      totals[type] = (totals[type] || 0) + (utime + stime) / ticksPerMs;
    } catch (error) {
      // Gone meanwhile.
    }
  }
  return totals;
}

// Opens `url` and, once `ready` holds, measures kWindowMs of frames counted by `framesExpression`.
async function measure(url, ready, framesExpression, extraArgs) {
  return withChromium({width: 1280, height: 720, extraArgs}, async ({browser, page}) => {
    await page.navigate(url);
    await waitFor('the page running', () => page.evaluate(ready), {timeoutMs: 60000});
    const read = async () => ({ms: await page.evaluate('performance.now()'),
                               frames: await page.evaluate(framesExpression),
                               cpu: cpuMsByProcessType(browser.pid)});
    const start = await read();
    await new Promise((resolve) => setTimeout(resolve, kWindowMs));
    const end = await read();
    const frames = end.frames - start.frames;
    const cpuMsPerFrame = {};
    for (const type of ['gpu-process', 'renderer', 'browser']) {
      cpuMsPerFrame[type] = ((end.cpu[type] || 0) - (start.cpu[type] || 0)) / frames;
    }
    return {framesPerSecond: frames / ((end.ms - start.ms) / 1000), cpuMsPerFrame};
  });
}

function line(name, {framesPerSecond, cpuMsPerFrame}) {
  const cpu = Object.entries(cpuMsPerFrame).map(([type, ms]) => `${type} ${ms.toFixed(1)}`).join(', ');
  return `frame_cost: ${name.padEnd(5)} load ${os.loadavg()[0].toFixed(2)}, ${framesPerSecond.toFixed(1)} frames/s, ` +
         `CPU ms a frame: ${cpu}`;
}

async function main() {
  const webDir = process.argv[2] && path.resolve(process.argv[2]);
  const rounds = Number(process.argv[3] || 3);
  const extraArgs = process.argv.slice(4);
  if (!webDir || !fs.existsSync(path.join(webDir, 'index.html')) || !(rounds >= 1)) {
    throw new Error('usage: frame_cost.js BUILD_WEB_DIR [ROUNDS] [CHROMIUM_FLAG...] ' +
                    '(build the page first: scripts/web.sh --build-only)');
  }
  const blankDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netcube-blank-'));
  fs.writeFileSync(path.join(blankDir, 'index.html'), kBlankPage);
  const lab = await serve(webDir);
  const blank = await serve(blankDir);
  try {
    for (let round = 0; round < rounds; ++round) {
      console.log(line('lab', await measure(lab.url,
                                            'typeof Module === "object" && typeof Module._netcube_probe_settled === ' +
                                                '"function" && Module._netcube_probe_settled() === 1',
                                            'Module._netcube_probe_frames()', extraArgs)));
      console.log(line('blank',
                       await measure(blank.url, 'window.frames_drawn > 5', 'window.frames_drawn', extraArgs)));
    }
  } finally {
    await lab.close();
    await blank.close();
    fs.rmSync(blankDir, {recursive: true, force: true});
  }
}

main().catch((error) => {
  console.error(`frame_cost: ${error.stack || error}`);
  process.exitCode = 1;
});

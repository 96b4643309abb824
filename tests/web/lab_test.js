'use strict';
// The browser test of issue 42: the built page (build/web) served on 127.0.0.1 and opened in headless
// Chromium at 1280x720. Holding → and D together for a second, player 1 (prediction on) moves on the very
// first frame its input holds the key, player 2 (naive) does not, and moves only a round trip later; with
// player 1's prediction unticked, its delay appears (held ←). A screenshot is not blank. It reports the page's
// figures against the targets: first frame within 3 s of navigation, at most 2 MB transferred
// (gzip), at least 30 frames a second, 60 game ticks a second.
//   node tests/web/lab_test.js BUILD_WEB_DIR
// NETCUBE_WEB_STRICT=1 makes a missed target a failure (on a quiet machine); otherwise it is reported.
const assert = require('node:assert/strict');

const {waitFor} = require('./cdp');
const {withLabPage} = require('./lab');
const {decodePng, colourVariety} = require('./png');

// sim::Button bits, and the way each moves the cube along x.
const kRight = {bit: 8, name: '→', sign: 1};
const kLeft = {bit: 4, name: '←', sign: -1};
const kHoldMs = 1000;
// The lab's default link: 125 ms each way. Without prediction the own cube moves once the server's answer
// is back: well after this.
const kLeastDelayMs = 150;
const kTargets = {firstFrameMs: 3000, transferredBytes: 2 * 1024 * 1024, framesPerSecond: 30, ticksPerSecond: 60};

// Holds `keys` for kHoldMs of the page's time; returns the frames recorded from just before the press.
async function hold(lab, keys) {
  await waitFor('every player settled', () => lab.probe('netcube_probe_settled'), {timeoutMs: 20000});
  const from = await lab.frames();
  for (const key of keys) await lab.page.keyDown(key);
  try {
    await lab.waitPageTime(kHoldMs, `${keys.join('+')} held for ${kHoldMs} ms`);
  } finally {
    for (const key of keys) await lab.page.keyUp(key);
  }
  return lab.history(Math.max(0, from - 1));
}

// The first frame whose player's newest input holds `key`, and the first frame from then on where the
// player's drawn cube has moved that way from where it was on the frame before that.
function response(history, player, key) {
  const pressed = history.findIndex((f, i) => i > 0 && (f.players[player].buttons & key.bit) !== 0);
  assert.ok(pressed > 0, `player ${player + 1}'s inputs never held ${key.name} (${history.length} frames recorded)`);
  const before = history[pressed - 1].players[player].x;
  const moved = history.findIndex((f, i) => i >= pressed && key.sign * (f.players[player].x - before) > 0);
  assert.ok(moved >= 0, `player ${player + 1}'s cube never moved in ${kHoldMs} ms of ${key.name}`);
  return {pressed: history[pressed], moved: history[moved], frames: moved - pressed,
          delayMs: history[moved].ms - history[pressed].ms};
}

async function rates(lab) {
  const read = async () => ({ms: await lab.now(), frames: await lab.frames(),
                             tick: await lab.probe('netcube_probe_server_tick')});
  const start = await read();
  await lab.waitPageTime(3000, 'three seconds of frames');
  const end = await read();
  const seconds = (end.ms - start.ms) / 1000;
  return {framesPerSecond: (end.frames - start.frames) / seconds, ticksPerSecond: (end.tick - start.tick) / seconds};
}

function report(name, value, unit, target, met) {
  const verdict = met ? 'met' : 'MISSED';
  console.log(`web: ${name} ${value}${unit} (target ${target}${unit}: ${verdict})`);
  return met;
}

async function main() {
  const webDir = process.argv[2];
  if (!webDir) throw new Error('usage: lab_test.js BUILD_WEB_DIR');
  const figures = await withLabPage(webDir, {width: 1280, height: 720}, async (lab, {page, firstFrameMs}) => {
    // Predicted: player 1 moves on the first frame its input holds →; naive player 2 a round trip later.
    const both = await hold(lab, ['ArrowRight', 'KeyD']);
    const predicted = response(both, 0, kRight);
    const naive = response(both, 1, kRight);
    assert.equal(predicted.frames, 0, `player 1 (prediction on) moved ${predicted.frames} frames after its input`);
    assert.ok(naive.frames > 0 && naive.delayMs >= kLeastDelayMs,
              `player 2 (naive) moved ${naive.delayMs} ms, ${naive.frames} frames after its input`);
    console.log(`web: → held: player 1 moved on the frame its input held it (frame ${predicted.pressed.frame}); ` +
                `player 2 ${naive.delayMs.toFixed(0)} ms (${naive.frames} frames) after its input`);

    // Unticked, player 1's cube waits for the server's answer too (back left, away from the wall).
    await lab.probe('netcube_probe_set_prediction', 'number', ['number', 'number'], [0, 0]);
    await waitFor('player 1\'s prediction unticked',
                  async () => (await lab.history((await lab.frames()) - 1)).some((f) => !f.players[0].prediction));
    const unpredicted = response(await hold(lab, ['ArrowLeft']), 0, kLeft);
    assert.ok(unpredicted.frames > 0 && unpredicted.delayMs >= kLeastDelayMs,
              `player 1 without prediction moved ${unpredicted.delayMs} ms after its input`);
    console.log(`web: player 1 with prediction unticked moved ${unpredicted.delayMs.toFixed(0)} ms ` +
                `(${unpredicted.frames} frames) after its input`);

    const image = decodePng(await page.screenshot());
    const variety = colourVariety(image);
    assert.equal(`${image.width}x${image.height}`, '1280x720');
    assert.ok(variety.colours >= 16 && variety.otherShare >= 0.05,
              `the screenshot looks blank: ${variety.colours} colours, ${(100 * variety.otherShare).toFixed(1)}% ` +
              'not the background');
    console.log(`web: screenshot 1280x720, ${variety.colours} colours, ` +
                `${(100 * variety.otherShare).toFixed(1)}% not the background`);

    const {framesPerSecond, ticksPerSecond} = await rates(lab);
    await waitFor('every response finished', () => [...page.responses.values()].every((r) => r.finished));
    assert.deepEqual(lab.problems(), [], 'the page threw');
    return {firstFrameMs, transferredBytes: page.transferredBytes(), framesPerSecond, ticksPerSecond};
  });
  const met = [
    report('first frame after navigation', figures.firstFrameMs.toFixed(0), ' ms', kTargets.firstFrameMs,
           figures.firstFrameMs <= kTargets.firstFrameMs),
    report('transferred (gzip)', figures.transferredBytes, ' bytes', kTargets.transferredBytes,
           figures.transferredBytes <= kTargets.transferredBytes),
    report('frames per second at 1280x720', figures.framesPerSecond.toFixed(1), '', `>= ${kTargets.framesPerSecond}`,
           figures.framesPerSecond >= kTargets.framesPerSecond),
    report('game ticks per second', figures.ticksPerSecond.toFixed(1), '', kTargets.ticksPerSecond,
           Math.abs(figures.ticksPerSecond - kTargets.ticksPerSecond) <= 0.05 * kTargets.ticksPerSecond),
  ];
  if (process.env.NETCUBE_WEB_STRICT === '1' && met.includes(false)) throw new Error('a target was missed');
}

main().catch((error) => {
  console.error(`lab_test: ${error.stack || error}`);
  process.exitCode = 1;
});

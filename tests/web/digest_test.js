'use strict';
// The same game on two compilers: the desktop lab (netcube-client, gcc, x86-64) and the web lab (clang,
// wasm32, in headless Chromium), given the same seed, link and scripted keys, draw the same frames: their
// per-frame digests (the server's world and every cube each player draws, hashed; apps/client/lab_digest.h)
// are equal frame by frame.
//   node tests/web/digest_test.js NETCUBE_CLIENT BUILD_WEB_DIR
const assert = require('node:assert/strict');
const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const {withLabPage} = require('./lab');

// Random keys for player 1, circles for player 2: both cubes move, meet and get corrected all along.
const kRun = {seed: 3, script1: 'random', script2: 'circle', frames: 900};

function desktopDigests(client) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'netcube-digests-'));
  const file = path.join(dir, 'digests.txt');
  try {
    const run = childProcess.spawnSync(client, [
      '--lab', '--seed', String(kRun.seed), '--script', kRun.script1, '--script2', kRun.script2,
      '--frames', String(kRun.frames), '--digests', file,
    ], {env: {...process.env, SDL_VIDEODRIVER: 'offscreen'}, encoding: 'utf8', timeout: 120000});
    if (run.status !== 0) {
      throw new Error(`netcube-client failed (${run.status ?? run.signal ?? run.error}): ${run.stderr}`);
    }
    return fs.readFileSync(file, 'utf8');
  } finally {
    fs.rmSync(dir, {recursive: true, force: true});
  }
}

async function main() {
  const [client, webDir] = process.argv.slice(2);
  if (!client || !webDir) throw new Error('usage: digest_test.js NETCUBE_CLIENT BUILD_WEB_DIR');
  const desktop = desktopDigests(client).trimEnd().split('\n');
  const web = await withLabPage(webDir, {}, async (lab) => {
    const text = await lab.probe('netcube_probe_scripted_digests', 'string', ['string', 'string', 'number', 'number'],
                                 [kRun.script1, kRun.script2, kRun.seed, kRun.frames]);
    if (text.startsWith('error:')) throw new Error(`the web probe: ${text}`);
    return text.trimEnd().split('\n');
  });
  assert.equal(desktop.length, kRun.frames, 'desktop digest lines');
  assert.equal(web.length, kRun.frames, 'web digest lines');
  const first = desktop.findIndex((line, frame) => line !== web[frame]);
  assert.equal(first, -1, `the digests differ from frame ${first}: desktop '${desktop[first]}', web '${web[first]}'`);
  assert.ok(new Set(desktop.map((line) => line.split(' ')[1])).size > kRun.frames / 2, 'the frames differ');
  console.log(`digests: the desktop and web labs agree on all ${kRun.frames} frames (seed ${kRun.seed}, ` +
              `--script ${kRun.script1} --script2 ${kRun.script2}); last ${desktop[desktop.length - 1]}`);
}

main().catch((error) => {
  console.error(`digest_test: ${error.stack || error}`);
  process.exitCode = 1;
});

'use strict';
// A headless Chromium driven over the DevTools protocol on --remote-debugging-pipe: Chromium reads
// NUL-terminated JSON commands on its fd 3 and writes replies and events on its fd 4. Plain Node, no npm
// package, so the browser tests run wherever Debian's `chromium` and `node` are installed.
const childProcess = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const kDefaultTimeoutMs = 20000;

// The Chromiums still running: killed by pid if this process ends before closing them (a failed test, a
// ctest timeout's SIGTERM).
const running = new Set();
function killRunning() {
  for (const pid of running) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch (error) {
      // Already gone.
    }
  }
  running.clear();
}
process.on('exit', killRunning);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    killRunning();
    process.exit(128 + os.constants.signals[signal]);
  });
}

// Waits until `probe()` returns a truthy value (awaited), polling every `intervalMs`; rejects with `what`
// and the last value or error once `timeoutMs` has passed.
async function waitFor(what, probe, {timeoutMs = kDefaultTimeoutMs, intervalMs = 20} = {}) {
  const deadline = Date.now() + timeoutMs;
  let last;
  for (;;) {
    try {
      last = await probe();
      if (last) return last;
    } catch (error) {
      last = error;
    }
    if (Date.now() >= deadline) {
      const detail = last instanceof Error ? last.message : JSON.stringify(last);
      throw new Error(`timed out after ${timeoutMs} ms waiting for ${what} (last: ${detail})`);
    }
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

// Windows virtual key codes and DOM codes of the keys the lab reads.
const kKeys = {
  ArrowLeft: {code: 'ArrowLeft', key: 'ArrowLeft', windowsVirtualKeyCode: 37},
  ArrowUp: {code: 'ArrowUp', key: 'ArrowUp', windowsVirtualKeyCode: 38},
  ArrowRight: {code: 'ArrowRight', key: 'ArrowRight', windowsVirtualKeyCode: 39},
  ArrowDown: {code: 'ArrowDown', key: 'ArrowDown', windowsVirtualKeyCode: 40},
  Space: {code: 'Space', key: ' ', text: ' ', windowsVirtualKeyCode: 32},
  KeyW: {code: 'KeyW', key: 'w', text: 'w', windowsVirtualKeyCode: 87},
  KeyA: {code: 'KeyA', key: 'a', text: 'a', windowsVirtualKeyCode: 65},
  KeyS: {code: 'KeyS', key: 's', text: 's', windowsVirtualKeyCode: 83},
  KeyD: {code: 'KeyD', key: 'd', text: 'd', windowsVirtualKeyCode: 68},
};

class Browser {
  constructor(child, userDataDir) {
    this.child = child;
    this.pid = child.pid;
    this.userDataDir = userDataDir;
    this.nextId = 1;
    this.pending = new Map();  // id -> {resolve, reject, method}
    this.listeners = [];       // {method, sessionId, callback}
    this.buffer = Buffer.alloc(0);
    this.stderr = '';
    this.exited = false;
    child.stdio[4].on('data', (chunk) => this.onData(chunk));
    child.stderr.on('data', (chunk) => {
      this.stderr = (this.stderr + chunk.toString()).slice(-8000);
    });
    running.add(child.pid);
    child.on('exit', (code, signal) => {
      this.exited = true;
      running.delete(child.pid);
      const error = new Error(`chromium exited (code ${code}, signal ${signal}): ${this.stderr.slice(-2000)}`);
      for (const {reject} of this.pending.values()) reject(error);
      this.pending.clear();
    });
  }

  onData(chunk) {
    this.buffer = Buffer.concat([this.buffer, chunk]);
    for (let end = this.buffer.indexOf(0); end >= 0; end = this.buffer.indexOf(0)) {
      const message = JSON.parse(this.buffer.subarray(0, end).toString('utf8'));
      this.buffer = this.buffer.subarray(end + 1);
      this.dispatch(message);
    }
  }

  dispatch(message) {
    if (message.id !== undefined) {
      const call = this.pending.get(message.id);
      if (!call) return;
      this.pending.delete(message.id);
      if (message.error) {
        call.reject(new Error(`${call.method}: ${message.error.message} ${message.error.data || ''}`));
      } else {
        call.resolve(message.result);
      }
      return;
    }
    for (const listener of this.listeners) {
      if (listener.method === message.method && listener.sessionId === message.sessionId) {
        listener.callback(message.params);
      }
    }
  }

  // Sends a command (to the browser, or to a target's session) and resolves with its result.
  send(method, params = {}, sessionId = undefined, timeoutMs = kDefaultTimeoutMs) {
    if (this.exited) return Promise.reject(new Error(`${method}: chromium has exited`));
    const id = this.nextId++;
    const message = {id, method, params};
    if (sessionId) message.sessionId = sessionId;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        reject(new Error(`${method}: no reply within ${timeoutMs} ms`));
      }, timeoutMs);
      const done = (f) => (value) => {
        clearTimeout(timer);
        f(value);
      };
      this.pending.set(id, {resolve: done(resolve), reject: done(reject), method});
      this.child.stdio[3].write(JSON.stringify(message) + '\0');
    });
  }

  on(method, sessionId, callback) {
    this.listeners.push({method, sessionId, callback});
  }

  // The first page target, attached with a flat session.
  async openPage({width, height}) {
    const {targetInfos} = await waitFor('a page target', async () => {
      const targets = await this.send('Target.getTargets');
      return targets.targetInfos.some((t) => t.type === 'page') ? targets : null;
    });
    const target = targetInfos.find((t) => t.type === 'page');
    const {sessionId} = await this.send('Target.attachToTarget', {targetId: target.targetId, flatten: true});
    const page = new Page(this, sessionId);
    await page.send('Page.enable');
    await page.send('Runtime.enable');
    await page.send('Network.enable');
    await page.send('Emulation.setDeviceMetricsOverride', {width, height, deviceScaleFactor: 1, mobile: false});
    // A headless page has no window focus of its own: without this, document.hasFocus() is false.
    await page.send('Emulation.setFocusEmulationEnabled', {enabled: true});
    return page;
  }

  // Stops Chromium by its pid: politely, then SIGKILL; removes its profile. Safe to call twice.
  async close() {
    if (!this.exited) {
      try {
        await this.send('Browser.close', {}, undefined, 3000);
      } catch (error) {
        // It may be gone or hung: the kill below ends it either way.
      }
      try {
        await waitFor('chromium to exit', () => this.exited, {timeoutMs: 3000});
      } catch (error) {
        try {
          process.kill(this.pid, 'SIGKILL');
        } catch (killError) {
          // Already gone.
        }
        await waitFor('chromium to die', () => this.exited, {timeoutMs: 5000}).catch(() => {});
      }
    }
    fs.rmSync(this.userDataDir, {recursive: true, force: true});
  }
}

class Page {
  constructor(browser, sessionId) {
    this.browser = browser;
    this.sessionId = sessionId;
    this.consoleLines = [];
    this.exceptions = [];
    this.responses = new Map();  // requestId -> {url, status, encodedBytes}
    browser.on('Runtime.consoleAPICalled', sessionId, (params) => {
      this.consoleLines.push(params.args.map((a) => a.value ?? a.description ?? '').join(' '));
    });
    browser.on('Runtime.exceptionThrown', sessionId, (params) => {
      const details = params.exceptionDetails;
      this.exceptions.push((details.exception && details.exception.description) || details.text);
    });
    browser.on('Network.responseReceived', sessionId, (params) => {
      this.responses.set(params.requestId, {url: params.response.url, status: params.response.status,
                                            encodedBytes: 0, finished: false});
    });
    browser.on('Network.loadingFinished', sessionId, (params) => {
      const response = this.responses.get(params.requestId);
      if (response) {
        response.encodedBytes = params.encodedDataLength;
        response.finished = true;
      }
    });
  }

  send(method, params = {}, timeoutMs = kDefaultTimeoutMs) {
    return this.browser.send(method, params, this.sessionId, timeoutMs);
  }

  // Navigates and resolves once the load event has fired.
  async navigate(url) {
    const loaded = new Promise((resolve) => this.browser.on('Page.loadEventFired', this.sessionId, resolve));
    const result = await this.send('Page.navigate', {url});
    if (result.errorText) throw new Error(`navigating to ${url}: ${result.errorText}`);
    await Promise.race([loaded, new Promise((resolve, reject) => setTimeout(
        () => reject(new Error(`no load event from ${url} within ${kDefaultTimeoutMs} ms`)), kDefaultTimeoutMs))]);
  }

  // The value of a JavaScript expression in the page (promises awaited); throws on an exception.
  async evaluate(expression) {
    const result = await this.send('Runtime.evaluate', {expression, returnByValue: true, awaitPromise: true});
    if (result.exceptionDetails) {
      const details = result.exceptionDetails;
      throw new Error(`evaluating ${expression}: ${(details.exception && details.exception.description) ||
                                                   details.text}`);
    }
    return result.result.value;
  }

  async keyDown(name) {
    const key = kKeys[name];
    if (!key) throw new Error(`unknown key ${name}`);
    await this.send('Input.dispatchKeyEvent', {type: 'keyDown', ...key});
  }

  async keyUp(name) {
    const key = kKeys[name];
    await this.send('Input.dispatchKeyEvent', {type: 'keyUp', code: key.code, key: key.key,
                                               windowsVirtualKeyCode: key.windowsVirtualKeyCode});
  }

  async click(x, y) {
    for (const type of ['mousePressed', 'mouseReleased']) {
      await this.send('Input.dispatchMouseEvent', {type, x, y, button: 'left', clickCount: 1});
    }
  }

  // A PNG of the viewport, as a Buffer.
  async screenshot() {
    const {data} = await this.send('Page.captureScreenshot', {format: 'png'});
    return Buffer.from(data, 'base64');
  }

  // The bytes transferred (as encoded on the wire: gzip where served gzipped) of the finished responses.
  transferredBytes() {
    let total = 0;
    for (const response of this.responses.values()) total += response.encodedBytes;
    return total;
  }
}

function findChromium() {
  for (const candidate of [process.env.CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser']) {
    if (candidate && fs.existsSync(candidate)) return candidate;
  }
  return null;
}

// Starts a headless Chromium with software WebGL and a fresh profile, and opens its page.
async function launch({width = 1280, height = 720, extraArgs = []} = {}) {
  const executable = findChromium();
  if (!executable) throw new Error('no chromium (apt-get install chromium, or set CHROMIUM)');
  const userDataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'netcube-chromium-'));
  const args = [
    '--headless=new', '--use-angle=swiftshader', '--enable-unsafe-swiftshader', '--no-sandbox',
    '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run',
    '--no-default-browser-check', '--disable-extensions', '--mute-audio',
    // A container's /dev/shm is 64 MB by default (CI runs in one): shared memory goes to /tmp instead.
    '--disable-dev-shm-usage',
    // A hidden or occluded headless page must still run its frames at full rate.
    '--disable-background-timer-throttling', '--disable-renderer-backgrounding',
    '--disable-backgrounding-occluded-windows', `--window-size=${width},${height}`,
    `--user-data-dir=${userDataDir}`, '--remote-debugging-pipe', ...extraArgs, 'about:blank',
  ];
  const child = childProcess.spawn(executable, args, {stdio: ['ignore', 'ignore', 'pipe', 'pipe', 'pipe']});
  const browser = new Browser(child, userDataDir);
  try {
    const page = await browser.openPage({width, height});
    return {browser, page};
  } catch (error) {
    await browser.close();
    throw error;
  }
}

// Runs `body({browser, page})` in a fresh Chromium and stops it afterwards, also when `body` throws.
async function withChromium(options, body) {
  const {browser, page} = await launch(options);
  try {
    return await body({browser, page});
  } finally {
    await browser.close();
  }
}

module.exports = {launch, withChromium, waitFor, kKeys};

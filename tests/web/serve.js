'use strict';
// A static file server on 127.0.0.1 (an ephemeral port) for the browser tests: it gzips what a static
// host would (HTML, JS, WASM, JSON, data), so the bytes a page transfers are measured as a visitor gets
// them, and counts the body bytes it sends.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const zlib = require('node:zlib');

const kTypes = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.wasm': 'application/wasm',
  '.data': 'application/octet-stream',
  '.json': 'application/json',
  '.png': 'image/png',
  '.css': 'text/css; charset=utf-8',
  '.ico': 'image/x-icon',
};
const kCompressed = new Set(['.png']);

// Serves `root`; resolves with {url, port, stats, close()} once listening. stats.bodyBytes counts the bytes
// of the bodies sent (gzipped where gzipped), stats.requests the paths asked for.
function serve(webRoot) {
  const root = path.resolve(webRoot);  // a relative root would fail the containment check below
  const stats = {bodyBytes: 0, requests: []};
  const gzipped = new Map();  // file path -> gzipped contents
  const server = http.createServer((request, response) => {
    const pathname = decodeURIComponent(new URL(request.url, 'http://127.0.0.1').pathname);
    stats.requests.push(pathname);
    const file = path.join(root, pathname.endsWith('/') ? pathname + 'index.html' : pathname);
    if (!file.startsWith(root) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      response.writeHead(404, {'Content-Type': 'text/plain'});
      response.end('not found');
      return;
    }
    const extension = path.extname(file);
    let body = fs.readFileSync(file);
    const headers = {'Content-Type': kTypes[extension] || 'application/octet-stream', 'Cache-Control': 'no-store'};
    if (!kCompressed.has(extension) && /\bgzip\b/.test(request.headers['accept-encoding'] || '')) {
      if (!gzipped.has(file)) gzipped.set(file, zlib.gzipSync(body, {level: 9}));
      body = gzipped.get(file);
      headers['Content-Encoding'] = 'gzip';
    }
    headers['Content-Length'] = body.length;
    response.writeHead(200, headers);
    response.end(body);
    stats.bodyBytes += body.length;
  });
  return new Promise((resolve, reject) => {
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const {port} = server.address();
      resolve({
        url: `http://127.0.0.1:${port}/`,
        port,
        stats,
        close: () => new Promise((done) => {
          server.closeAllConnections();
          server.close(() => done());
        }),
      });
    });
  });
}

module.exports = {serve};

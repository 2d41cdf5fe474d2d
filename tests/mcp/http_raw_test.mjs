// SPDX-License-Identifier: GPL-3.0-or-later
// Bad input against `sandbox-studio mcp --http` with raw HTTP requests (node:http, so Host,
// Origin and bodies are exactly what the test says): each gets the specified status and
// JSON-RPC error, and the server keeps serving.
//   node http_raw_test.mjs --binary PATH
import { spawn } from 'node:child_process';
import http from 'node:http';
import { check, finish } from './harness.mjs';

const binaryIdx = process.argv.indexOf('--binary');
const binary = binaryIdx > 0 ? process.argv[binaryIdx + 1] : undefined;
if (!binary) {
    console.error('usage: node http_raw_test.mjs --binary PATH');
    process.exit(2);
}

const token = 'raw-test-token';
const MAX_BODY = 64 * 1024;
const child = spawn(binary, ['mcp', '--http', '0', '--token', token, '--max-body', '64k', '--allow-origin', 'https://trusted.example'], {
    stdio: ['ignore', 'ignore', 'pipe'],
});
const port = await new Promise((resolve, reject) => {
    let err = '';
    const t = setTimeout(() => reject(new Error(`no URL on stderr: ${err}`)), 20000);
    child.stderr.on('data', (c) => {
        err += c;
        const m = /listening on http:\/\/127\.0\.0\.1:(\d+)\/mcp/.exec(err);
        if (m) {
            clearTimeout(t);
            resolve(Number(m[1]));
        }
    });
    child.on('exit', (code) => reject(new Error(`server exited ${code}: ${err}`)));
});
child.stderr.resume();

/// One request; resolves {status, headers, body, json}. SSE bodies are parsed into events.
function request({ method = 'POST', headers = {}, body, path = '/mcp', auth = true, host = `127.0.0.1:${port}`, accept = 'application/json, text/event-stream' } = {}) {
    return new Promise((resolve, reject) => {
        const h = { Host: host, ...(accept ? { Accept: accept } : {}), ...(body !== undefined ? { 'Content-Type': 'application/json' } : {}), ...headers };
        if (auth) h.Authorization = `Bearer ${token}`;
        const payload = body === undefined ? undefined : typeof body === 'string' || Buffer.isBuffer(body) ? body : JSON.stringify(body);
        if (payload !== undefined) h['Content-Length'] = Buffer.byteLength(payload);
        const req = http.request({ host: '127.0.0.1', port, method, path, headers: h, setHost: false, agent: false }, (res) => {
            let data = '';
            res.on('data', (c) => {
                data += c;
                // A GET stream stays open: return once the headers and first bytes came.
                if (method === 'GET' && res.statusCode === 200) {
                    res.destroy();
                    resolve({ status: res.statusCode, headers: res.headers, body: data });
                }
            });
            res.on('end', () => {
                let json;
                if ((res.headers['content-type'] ?? '').startsWith('text/event-stream')) {
                    json = data
                        .split('\n')
                        .filter((l) => l.startsWith('data: '))
                        .map((l) => JSON.parse(l.slice(6)));
                    json = json.length === 1 ? json[0] : json;
                } else {
                    try {
                        json = data ? JSON.parse(data) : undefined;
                    } catch {
                        json = undefined;
                    }
                }
                resolve({ status: res.statusCode, headers: res.headers, body: data, json });
            });
        });
        req.on('error', reject);
        if (payload !== undefined) req.write(payload);
        req.end();
    });
}
const rpc = (id, method, params) => ({ jsonrpc: '2.0', id, method, ...(params ? { params } : {}) });

async function initialize(version = '2025-11-25') {
    const r = await request({ body: rpc(1, 'initialize', { protocolVersion: version, capabilities: {}, clientInfo: { name: 'raw', version: '1' } }) });
    const sid = r.headers['mcp-session-id'];
    await request({ body: { jsonrpc: '2.0', method: 'notifications/initialized' }, headers: { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': version } });
    return { r, sid };
}

// --- happy path ----------------------------------------------------------------------------
const { r: init, sid } = await initialize();
check(init.status === 200 && typeof sid === 'string' && /^[0-9a-f]{32}$/.test(sid), 'initialize: 200 with Mcp-Session-Id', { status: init.status, headers: init.headers });
check(init.json?.result?.protocolVersion === '2025-11-25', 'initialize: protocol 2025-11-25', init.json);
const S = { 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25' };
const ping = async () => (await request({ body: rpc(99, 'ping'), headers: S })).json?.result;
check(JSON.stringify(await ping()) === '{}', 'ping answers {}');
const jsonOnly = await request({ body: rpc(2, 'tools/list'), headers: S, accept: 'application/json' });
check(jsonOnly.status === 200 && jsonOnly.headers['content-type'] === 'application/json' && jsonOnly.json?.result?.tools?.length === 7, 'Accept: application/json gets one JSON body', { status: jsonOnly.status, ct: jsonOnly.headers['content-type'] });
const sse = await request({ body: rpc(3, 'tools/list'), headers: S });
check(sse.status === 200 && sse.headers['content-type'] === 'text/event-stream' && sse.json?.result?.tools?.length === 7, 'Accept with text/event-stream gets an SSE stream', { status: sse.status, ct: sse.headers['content-type'] });
const note = await request({ body: { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } }, headers: S });
check(note.status === 202 && note.body === '', 'a notification gets 202 and no body', note.status);
const vers = await initialize('1999-01-01');
check(vers.r.json?.result?.protocolVersion === '2025-11-25', 'initialize with an unknown version: server offers its newest', vers.r.json);
const old = await initialize('2025-03-26');
check(old.r.json?.result?.protocolVersion === '2025-03-26', 'initialize 2025-03-26 is echoed', old.r.json);

// --- JSON-RPC errors --------------------------------------------------------------------------
const parse = await request({ body: '{"jsonrpc": "2.0", "id": 1, "method": ', headers: S });
check(parse.status === 400 && parse.json?.error?.code === -32700, 'malformed JSON: 400 with -32700', { status: parse.status, body: parse.body });
const notObj = await request({ body: '"just a string"', headers: S });
check(notObj.status === 400 && notObj.json?.error?.code === -32700, 'JSON that is not a message: 400 with -32700', { status: notObj.status, body: notObj.body });
const invalid = await request({ body: { jsonrpc: '1.0', id: 5, method: 'ping' }, headers: S });
check(invalid.json?.error?.code === -32600, 'jsonrpc other than 2.0: -32600', invalid.json);
const nullId = await request({ body: { jsonrpc: '2.0', id: null, method: 'ping' }, headers: S });
check(nullId.json?.error?.code === -32600, 'null id: -32600', nullId.json);
const unknown = await request({ body: rpc(6, 'tools/frobnicate'), headers: S });
check(unknown.json?.error?.code === -32601 && unknown.json?.id === 6, 'unknown method: -32601 with the request id', unknown.json);
const badName = await request({ body: rpc(7, 'tools/call', { name: 5, arguments: {} }), headers: S });
check(badName.json?.error?.code === -32602, 'tools/call with a non-string name: -32602', badName.json);
const badArgs = await request({ body: rpc(8, 'tools/call', { name: 'execute_code', arguments: 'print(1)' }), headers: S });
check(badArgs.json?.error?.code === -32602, 'tools/call with non-object arguments: -32602', badArgs.json);
const unknownTool = await request({ body: rpc(9, 'tools/call', { name: 'rm_rf', arguments: {} }), headers: S });
check(unknownTool.json?.error?.code === -32602 && /Unknown tool/.test(unknownTool.json?.error?.message), 'unknown tool: -32602', unknownTool.json);
const badLevel = await request({ body: rpc(10, 'logging/setLevel', { level: 'loud' }), headers: S });
check(badLevel.json?.error?.code === -32602, 'logging/setLevel with a bad level: -32602', badLevel.json);
const paramsArray = await request({ body: rpc(11, 'tools/list', [1, 2]), headers: S });
check(paramsArray.json?.error?.code === -32602, 'params that are not an object: -32602', paramsArray.json);
// Revisions before 2025-11-25: wrong argument types are protocol errors (-32602).
const OS = { 'Mcp-Session-Id': old.sid, 'MCP-Protocol-Version': '2025-03-26' };
const oldArgs = await request({ body: rpc(12, 'tools/call', { name: 'execute_code', arguments: { language: 'python', code: ['x'] } }), headers: OS });
check(oldArgs.json?.error?.code === -32602 && /code must be a string/.test(oldArgs.json?.error?.message), '2025-03-26: wrong argument type is -32602', oldArgs.json);
const newArgs = await request({ body: rpc(13, 'tools/call', { name: 'execute_code', arguments: { language: 'python', code: 'x', timeout: 'soon' } }), headers: S });
check(newArgs.json?.result?.isError === true, '2025-11-25: wrong argument type is an isError result', newArgs.json);
// Batches: only 2025-03-26 has them.
const batchNew = await request({ body: [rpc(20, 'ping'), rpc(21, 'ping')], headers: S });
check(batchNew.json?.error?.code === -32600, 'a batch on 2025-11-25: -32600', batchNew.json);
const batchOld = await request({ body: [rpc(22, 'ping'), { jsonrpc: '2.0', method: 'notifications/initialized' }, rpc(23, 'nope')], headers: OS, accept: 'application/json' });
check(Array.isArray(batchOld.json) && batchOld.json.length === 2 && batchOld.json.some((m) => m.id === 22 && m.result) && batchOld.json.some((m) => m.id === 23 && m.error?.code === -32601), 'a batch on 2025-03-26: one array of responses', batchOld.json);
const emptyBatch = await request({ body: [], headers: OS });
check(emptyBatch.json?.error?.code === -32600, 'an empty batch: -32600', emptyBatch.json);
const twice = await request({ body: rpc(24, 'initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } }), headers: S });
check(twice.json?.error?.code === -32600, 'initialize twice in one session: -32600', twice.json);

// --- HTTP-level refusals --------------------------------------------------------------------
const big = await request({ body: JSON.stringify(rpc(30, 'ping', { pad: 'x'.repeat(MAX_BODY) })), headers: S });
check(big.status === 413, 'oversized body: 413', { status: big.status, body: big.body });
const noSid = await request({ body: rpc(31, 'tools/list') });
check(noSid.status === 400 && noSid.json?.error, 'missing Mcp-Session-Id: 400', { status: noSid.status, body: noSid.body });
const badSid = await request({ body: rpc(32, 'tools/list'), headers: { 'Mcp-Session-Id': '0'.repeat(32) } });
check(badSid.status === 404, 'unknown Mcp-Session-Id: 404', { status: badSid.status, body: badSid.body });
const noToken = await request({ body: rpc(33, 'ping'), headers: S, auth: false });
check(noToken.status === 401 && /Bearer/.test(noToken.headers['www-authenticate'] ?? ''), 'missing token: 401 with WWW-Authenticate', { status: noToken.status, headers: noToken.headers });
const wrongToken = await request({ body: rpc(34, 'ping'), headers: { ...S, Authorization: 'Bearer not-the-token' }, auth: false });
check(wrongToken.status === 401, 'wrong token: 401', wrongToken.status);
const evilHost = await request({ body: rpc(35, 'ping'), headers: S, host: 'evil.example:8080' });
check(evilHost.status === 403, 'foreign Host (DNS rebinding): 403', evilHost.status);
const evilOrigin = await request({ body: rpc(36, 'ping'), headers: { ...S, Origin: 'http://evil.example' } });
check(evilOrigin.status === 403, 'foreign Origin: 403', evilOrigin.status);
const localOrigin = await request({ body: rpc(37, 'ping'), headers: { ...S, Origin: `http://localhost:${port}` } });
check(localOrigin.status === 200, 'a localhost Origin is accepted', localOrigin.status);
const trusted = await request({ body: rpc(38, 'ping'), headers: { ...S, Origin: 'https://trusted.example' } });
check(trusted.status === 200, 'an --allow-origin Origin is accepted', trusted.status);
const localhostHost = await request({ body: rpc(39, 'ping'), headers: S, host: `localhost:${port}` });
check(localhostHost.status === 200, 'Host: localhost is accepted', localhostHost.status);
const badVersion = await request({ body: rpc(40, 'ping'), headers: { ...S, 'MCP-Protocol-Version': '2099-01-01' } });
check(badVersion.status === 400, 'unsupported MCP-Protocol-Version header: 400', badVersion.status);
const wrongType = await request({ body: rpc(41, 'ping'), headers: { ...S, 'Content-Type': 'text/plain' } });
check(wrongType.status === 415, 'Content-Type other than JSON: 415', wrongType.status);
const otherPath = await request({ path: '/other', body: rpc(42, 'ping'), headers: S });
check(otherPath.status === 404, 'a path other than /mcp: 404', otherPath.status);
const put = await request({ method: 'PUT', body: rpc(43, 'ping'), headers: S });
check(put.status === 405, 'PUT: 405', put.status);
const getNoSid = await request({ method: 'GET', accept: 'text/event-stream' });
check(getNoSid.status === 400, 'GET without a session: 400', getNoSid.status);
const get = await request({ method: 'GET', accept: 'text/event-stream', headers: S });
check(get.status === 200 && get.headers['content-type'] === 'text/event-stream', 'GET opens the session stream', { status: get.status, headers: get.headers });
const getJson = await request({ method: 'GET', accept: 'application/json', headers: S });
check(getJson.status === 406, 'GET without Accept: text/event-stream: 406', getJson.status);

// --- the server kept serving; DELETE ends the session ---------------------------------------
check(JSON.stringify(await ping()) === '{}', 'the server still serves after all of that');
const del = await request({ method: 'DELETE', headers: S });
check(del.status === 200, 'DELETE ends the session: 200', del.status);
const afterDel = await request({ body: rpc(50, 'ping'), headers: S });
check(afterDel.status === 404, 'the ended session: 404', afterDel.status);
const delAgain = await request({ method: 'DELETE', headers: S });
check(delAgain.status === 404, 'DELETE of an ended session: 404', delAgain.status);
const fresh = await initialize();
check(fresh.r.status === 200 && fresh.sid !== sid, 'a new session after that works', fresh.r.status);

const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
child.kill('SIGTERM');
const ex = await exited;
check(ex.code === 0, 'exit status 0 at SIGTERM', ex);
finish('raw HTTP');

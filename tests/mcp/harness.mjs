// SPDX-License-Identifier: GPL-3.0-or-later
// What the MCP client tests share: arguments, loading the npm clients from a node_modules
// folder outside the repository, PASS/FAIL lines with a count and the exit status, and
// the engine's sandboxes as dockerd lists them.
import { createRequire } from 'node:module';
import http from 'node:http';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/// `--name value` pairs of the command line as an object.
export function parseArgs(argv = process.argv.slice(2)) {
    return Object.fromEntries(argv.reduce((acc, a, i, all) => (a.startsWith('--') ? [...acc, [a.slice(2), all[i + 1]]] : acc), []));
}

/// import() of a package as installed under modules (tests/mcp/install-clients.sh).
export function loaderFor(modules) {
    const requireFrom = createRequire(path.join(modules, 'noop.js'));
    return async (spec) => import(pathToFileURL(requireFrom.resolve(spec)).href);
}

let failures = 0;
let passes = 0;
/// Prints PASS or FAIL (with detail, shortened) and counts it.
export function check(cond, what, detail) {
    if (cond) {
        passes++;
        console.log(`PASS ${what}`);
    } else {
        failures++;
        console.log(`FAIL ${what}${detail !== undefined ? `: ${typeof detail === 'string' ? detail : JSON.stringify(detail).slice(0, 800)}` : ''}`);
    }
}
/// Prints the totals and exits 1 when any check failed.
export function finish(label) {
    console.log(`\n${passes} passed, ${failures} failed (${label})`);
    process.exit(failures ? 1 : 0);
}

export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/// Polls fn until it returns something truthy or ms pass; returns its last value.
export async function waitFor(fn, ms, step = 200) {
    const end = Date.now() + ms;
    for (;;) {
        const v = await fn();
        if (v || Date.now() > end) return v;
        await sleep(step);
    }
}

/// The text items of a tools/call result, joined by newlines.
export const textOf = (result) => (result.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');

/// Containers of the engine process `pid` (label io.sandbox-studio.owner = host/pid).
export function sandboxesOf(pid) {
    const filters = encodeURIComponent(JSON.stringify({ label: ['io.sandbox-studio.managed=true'] }));
    return new Promise((resolve, reject) => {
        const req = http.request(
            { socketPath: '/var/run/docker.sock', path: `/v1.41/containers/json?all=1&filters=${filters}` },
            (res) => {
                let body = '';
                res.on('data', (c) => (body += c));
                res.on('end', () => {
                    try {
                        resolve(JSON.parse(body).filter((c) => (c.Labels?.['io.sandbox-studio.owner'] ?? '').endsWith(`/${pid}`)));
                    } catch (e) {
                        reject(e);
                    }
                });
            },
        );
        req.on('error', (e) => reject(new Error(`dockerd is not answering on /var/run/docker.sock (start it: ./studio.sh services): ${e.message}`)));
        req.end();
    });
}

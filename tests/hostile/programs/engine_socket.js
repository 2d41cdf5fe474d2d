// The engine's socket from Node: existence and an HTTP request over it.
const fs = require('fs');
const http = require('http');
const path = '/var/run/docker.sock';
console.log('exists', fs.existsSync(path));
const req = http.get({ socketPath: path, path: '/v1.41/containers/json' }, (res) => {
  console.log('REACHED', res.statusCode);
});
req.on('error', (e) => console.log('refused', e.code));

// Baseline: the hello-world and CatSet sync hooks as a minimal Node.js `http` server, doing the work metahooks'
// controllers do (parse the whole request, build the desired children, write the answer). Written for the
// comparison in docs/performance.md.   node scripts/baselines/hooks.js PORT
// The server model is that of Metacontroller's JavaScript examples (examples/catset/manifest/sync.js at v4.17.2, a
// function of the request served by the image metacontroller/nodejs-server, catset-controller.yaml line 49): one
// Node process and its http server. Each answer leaves in one write (its length known, headers and body handed
// over together), with Nagle's algorithm off.
'use strict';
const http = require('http');

function helloWorld(req) {
  const parent = req.parent;
  const pods = Object.values((req.children || {})['Pod.v1'] || {});
  return {
    status: { succeeded: pods.filter((p) => p.status && p.status.phase === 'Succeeded').length },
    children: [{
      apiVersion: 'v1', kind: 'Pod', metadata: { name: parent.metadata.name },
      spec: { restartPolicy: 'OnFailure',
        containers: [{ name: 'hello', image: 'busybox', command: ['echo', `Hello, ${parent.spec.who}!`] }] },
    }],
  };
}

function ordinalOf(name, podName) {
  const prefix = name + '-';
  if (!podName.startsWith(prefix)) return -1;
  const n = Number(podName.slice(prefix.length));
  return Number.isInteger(n) && n >= 0 ? n : -1;
}

function readyAndRunning(pod) {
  return pod && pod.status && pod.status.phase === 'Running' && !pod.metadata.deletionTimestamp
    && (pod.status.conditions || []).some((c) => c.type === 'Ready' && c.status === 'True');
}

function catset(req) {
  const parent = req.parent;
  const name = parent.metadata.name;
  const spec = parent.spec;
  const replicas = spec.replicas;
  const observed = new Map();
  for (const pod of Object.values(req.children['Pod.v1'] || {})) {
    const o = ordinalOf(name, pod.metadata.name);
    if (o >= 0) observed.set(o, pod);
  }
  let ready = 0;
  while (ready < replicas && readyAndRunning(observed.get(ready))) ready++;
  const ordinals = new Set(observed.keys());
  if (ready < replicas) ordinals.add(ready);
  const sorted = [...ordinals].sort((a, b) => b - a);
  if (ready === replicas && sorted.length && sorted[0] >= replicas) sorted.shift();
  const children = [];
  for (const o of sorted) {
    const pod = JSON.parse(JSON.stringify(spec.template));
    pod.apiVersion = 'v1'; pod.kind = 'Pod';
    pod.metadata = Object.assign(pod.metadata || {}, { name: `${name}-${o}` });
    pod.spec.hostname = `${name}-${o}`;
    pod.spec.subdomain = spec.serviceName;
    for (const t of spec.volumeClaimTemplates || []) {
      (pod.spec.volumes = pod.spec.volumes || []).push({ name: t.metadata.name,
        persistentVolumeClaim: { claimName: `${t.metadata.name}-${name}-${o}` } });
    }
    children.push(pod);
  }
  for (const t of spec.volumeClaimTemplates || []) {
    for (let o = 0; o < replicas; o++) {
      children.push({ apiVersion: 'v1', kind: 'PersistentVolumeClaim',
        metadata: { name: `${t.metadata.name}-${name}-${o}`, labels: spec.selector.matchLabels }, spec: t.spec });
    }
  }
  return { status: { replicas: observed.size, readyReplicas: ready }, children };
}

const hooks = { '/hello-world/sync': helloWorld, '/catset/sync': catset };

function send(response, status, body) {
  const bytes = Buffer.from(body);
  response.writeHead(status, { 'Content-Type': 'application/json', 'Content-Length': bytes.length });
  response.end(bytes);
}

http.createServer({ noDelay: true }, (request, response) => {
  const hook = hooks[request.url];
  const chunks = [];
  request.on('data', (c) => chunks.push(c));
  request.on('end', () => {
    if (!hook) { send(response, 404, ''); return; }
    let body;
    try {
      body = JSON.stringify(hook(JSON.parse(Buffer.concat(chunks))));
    } catch (e) {
      send(response, 500, JSON.stringify({ error: String(e) }));
      return;
    }
    send(response, 200, body);
  });
}).listen(Number(process.argv[2] || 18091), '127.0.0.1');

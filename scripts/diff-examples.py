#!/usr/bin/env python3
# Writes the recordings docs/diff.md runs (docs/diff/*.json) from golden fixtures, as the server would have
# recorded them: the world as the hooks left it (observed children as answered, the status written), then one
# change to the parent. Needs target/metahooks.jar (mvn -B -q package -DskipTests). Run from the project root.
import json, subprocess, re
F='src/test/resources/fixtures'
def answer(ctrl, req, at):
    out = subprocess.run(['java','-jar','target/metahooks.jar','sync',ctrl], input=json.dumps(req).encode(), capture_output=True, check=True)
    # the recorded answer carries the recording's time (the offline command reads the wall clock)
    seen = json.dumps(req)
    return json.loads(re.sub(r'"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"', lambda m: m.group(0) if m.group(0)[1:-1] in seen else '"'+at+'"', out.stdout.decode()))
def merge(observed, desired):
    if isinstance(observed, dict) and isinstance(desired, dict):
        r = dict(observed)
        for k,v in desired.items():
            r[k] = merge(observed.get(k), v) if k in observed else v
        return r
    return desired
def settled(ctrl, req, at):
    """the world as Metacontroller left it: observed children as the hook asked for them (and its last-applied record
    of them), the status it wrote"""
    ans = answer(ctrl, req, at)
    for child in ans['children']:
        group = child['kind'] + '.' + child['apiVersion']
        for key, obj in req['children'].get(group, {}).items():
            if obj['metadata']['name'] == child['metadata']['name']:
                req['children'][group][key] = merge(obj, child)
                # and Metacontroller's record of what it applied
                annotations = req['children'][group][key]['metadata'].setdefault('annotations', {})
                annotations['metacontroller.k8s.io/last-applied-configuration'] = json.dumps(child, separators=(',', ':'))
    req['parent']['status'] = dict(ans['status'], observedGeneration=req['parent']['metadata'].get('generation', 1))
def write(path, ctrl, req, at):
    rec = {"controller":ctrl,"hook":"sync","version":"0.1.0","recordedAt":at,"request":req,"response":answer(ctrl, req, at)}
    with open(path,'w') as f:
        json.dump(rec, f, indent=2); f.write('\n')
req = json.load(open(f'{F}/catset/sync/04-all-ready-steady.request.json'))
settled('catset', req, '2026-12-01T08:00:00Z')
req['parent']['spec']['replicas'] = 5
req['parent']['metadata']['generation'] = req['parent']['metadata'].get('generation', 1) + 1
write('docs/diff/catset-scale-up.json', 'catset', req, '2026-12-01T09:00:00Z')
req = json.load(open(f'{F}/postgrescluster/sync/13-ha-ready-v2-keys.request.json'))
settled('postgrescluster', req, '2026-12-01T08:00:00Z')
req['parent']['spec']['image'] = 'ghcr.io/zalando/spilo-17:4.0-p4'
req['parent']['metadata']['generation'] = req['parent']['metadata'].get('generation', 1) + 1
write('docs/diff/postgrescluster-image-change.json', 'postgrescluster', req, '2026-12-01T09:05:00Z')

#!/usr/bin/env python3
"""The HTTP calls of scripts/lab/device-service-run.sh, in Python's standard library only: the GPU machine has python3
but no promise of curl. Every call has a timeout; a failed call exits non-zero with the reason on stderr.

  service-http.py ready BASE TIMEOUT_S                 waits until /actuator/health/readiness is UP
  service-http.py get URL OUT [--key K | --admin PW]   a GET saved to OUT (- for stdout)
  service-http.py register BASE KEY ZKEY NAME OUT TIMEOUT_S [WASM]
                                                       POST /api/v1/circuits (multipart, streamed from the file),
                                                       then polls the circuit until READY (exit 1 if FAILED)
  service-http.py console BASE PASSWORD DIR            form login as admin, then the dashboard, circuits and jobs
                                                       pages with their CSS and JS under DIR, links made relative
  service-http.py proofs BASE KEY COUNT PREFIX DIR     the newest COUNT DONE jobs: DIR/PREFIX-<id>/ with job.json,
                                                       proofs.json and the first partition's proof.json and
                                                       public.json (snarkjs's layout) and verification_key.json
"""
import http.cookiejar
import json
import os
import re
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from base64 import b64encode

TIMEOUT = 30


def request(url, key=None, admin=None, data=None, headers=None, timeout=TIMEOUT, opener=None):
    req = urllib.request.Request(url, data=data, headers=dict(headers or {}))
    if key:
        req.add_header('X-API-Key', key)
    if admin:
        req.add_header('Authorization', 'Basic ' + b64encode(('admin:' + admin).encode()).decode())
    with (opener or urllib.request.build_opener()).open(req, timeout=timeout) as r:
        return r.read()


def save(path, body):
    if path == '-':
        sys.stdout.buffer.write(body)
        return
    os.makedirs(os.path.dirname(path) or '.', exist_ok=True)
    with open(path, 'wb') as f:
        f.write(body)


def ready(base, timeout_s):
    deadline = time.time() + float(timeout_s)
    while time.time() < deadline:
        try:
            if b'"UP"' in request(base + '/actuator/health/readiness', timeout=2):
                return 0
        except (OSError, urllib.error.URLError):
            pass
        time.sleep(1)
    return 1


def get(url, out, *opts):
    key = admin = None
    for flag, value in zip(opts[::2], opts[1::2]):
        if flag == '--key':
            key = value
        elif flag == '--admin':
            admin = value
    save(out, request(url, key=key, admin=admin))
    return 0


class FileBody:
    """A multipart body streamed from disk: the head, the file, the tail (a zkey may be gigabytes)."""

    def __init__(self, head, path, tail):
        self.parts = [head, path, tail]
        self.length = len(head) + os.path.getsize(path) + len(tail)

    def __iter__(self):
        yield self.parts[0]
        with open(self.parts[1], 'rb') as f:
            while chunk := f.read(1 << 20):
                yield chunk
        yield self.parts[2]


def register(base, key, zkey, name, out, timeout_s, wasm=None):
    boundary = 'proofline-' + uuid.uuid4().hex
    head = (f'--{boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n{name}\r\n'
            f'--{boundary}\r\nContent-Disposition: form-data; name="zkey"; filename="circuit.zkey"\r\n'
            'Content-Type: application/octet-stream\r\n\r\n').encode()
    tail = b''
    if wasm:  # the witness calculator, for input jobs: small, so sent from memory after the key's stream
        with open(wasm, 'rb') as f:
            tail = (f'\r\n--{boundary}\r\nContent-Disposition: form-data; name="wasm"; filename="circuit.wasm"\r\n'
                    'Content-Type: application/octet-stream\r\n\r\n').encode() + f.read()
    tail += f'\r\n--{boundary}--\r\n'.encode()
    body = FileBody(head, zkey, tail)
    headers = {'Content-Type': 'multipart/form-data; boundary=' + boundary, 'Content-Length': str(body.length)}
    deadline = time.time() + float(timeout_s)
    try:
        answer = request(base + '/api/v1/circuits', key=key, data=body, headers=headers, timeout=float(timeout_s))
        circuit = json.loads(answer)
        # 202: the service checks the key's points after the upload; wait until the circuit is READY or FAILED
        while circuit.get('state') == 'REGISTERING' and time.time() < deadline:
            time.sleep(1)
            answer = request(f'{base}/api/v1/circuits/{circuit["id"]}', key=key)
            circuit = json.loads(answer)
        save(out, answer)
    except urllib.error.HTTPError as e:
        save(out, e.read())
        print(f'register: HTTP {e.code}', file=sys.stderr)
        return 1
    if circuit.get('state') != 'READY':
        print(f'register: circuit {circuit.get("id")} is {circuit.get("state")}: {circuit.get("failure") or "timed out"}',
              file=sys.stderr)
        return 1
    return 0


def console(base, password, directory):
    jar = http.cookiejar.CookieJar()
    opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    login = request(base + '/login', opener=opener).decode()
    match = re.search(r'name="_csrf"[^>]*value="([^"]*)"', login)
    form = {'username': 'admin', 'password': password}
    if match:
        form['_csrf'] = match.group(1)
    try:
        request(base + '/login', data=urllib.parse.urlencode(form).encode(), opener=opener,
                headers={'Content-Type': 'application/x-www-form-urlencoded'})
    except urllib.error.HTTPError:
        pass  # the redirect after a login may lead to a page that is not there (/); the session cookie is set
    saved = []
    for path, name in (('/console', 'dashboard.html'), ('/console/circuits', 'circuits.html'),
                       ('/console/jobs', 'jobs.html')):
        page = request(base + path, opener=opener).decode()
        if 'name="password"' in page:
            print(f'console: {path} answered the login page (the login failed)', file=sys.stderr)
            return 1
        for asset in sorted(set(re.findall(r'(?:href|src)="(/[^"]+\.(?:css|js))"', page))):
            target = os.path.join(directory, asset.lstrip('/'))
            if not os.path.exists(target):
                save(target, request(base + asset, opener=opener))
                saved.append(asset.lstrip('/'))
        save(os.path.join(directory, name), re.sub(r'(href|src)="/', r'\1="', page).encode())
        saved.append(name)
    print(' '.join(saved))
    return 0


def proofs(base, key, count, prefix, directory):
    count = int(count)
    page = json.loads(request(f'{base}/api/v1/jobs?status=DONE&page=0&size={count}', key=key))
    for job in page['jobs'][:count]:
        job_id = job['id']
        d = os.path.join(directory, f'{prefix}-{job_id[:8]}')
        detail = request(f'{base}/api/v1/jobs/{job_id}', key=key)
        save(os.path.join(d, 'job.json'), detail)
        body = request(f'{base}/api/v1/jobs/{job_id}/proof', key=key)
        save(os.path.join(d, 'proofs.json'), body)
        first = json.loads(body)['proofs'][0]
        save(os.path.join(d, 'proof.json'), json.dumps(first['proof'], indent=1).encode())
        save(os.path.join(d, 'public.json'), json.dumps(first['publicSignals'], indent=1).encode())
        save(os.path.join(d, 'verification_key.json'),
             request(f'{base}/api/v1/circuits/{job["circuitId"]}/verification-key', key=key))
        devices = sorted({p.get('device') for p in json.loads(detail).get('partitions', [])} - {None})
        print(d, ','.join(devices) or '-')
    return 0


def main(argv):
    commands = {'ready': ready, 'get': get, 'register': register, 'console': console, 'proofs': proofs}
    if len(argv) < 2 or argv[1] not in commands:
        print(__doc__, file=sys.stderr)
        return 2
    try:
        return commands[argv[1]](*argv[2:])
    except (OSError, urllib.error.URLError, ValueError, KeyError) as e:
        print(f'{argv[1]}: {e}', file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv))

#!/usr/bin/env python3
"""wirecap.py - capture and decode the PMIx client/server messages of one libpmix 4.2.2 client.

  wirecap.py proxy SERVER_PORT LOG PORTFILE   forward 127.0.0.1:<free port> to SERVER_PORT, log every
                                             chunk as a JSON line {dir, hex}, write the port to PORTFILE
  wirecap.py decode LOG...                   print each request and reply, decoded with the layouts
                                             of docs/wireup.md §c (bfrops v41, non-described buffers)

A request or reply the decoder does not consume exactly is flagged MISMATCH: that is how the layouts
in docs/wireup.md were checked against a real libpmix 4.2.2 server, and how a server's replies can
be checked against them."""
import json, socket, struct, sys, threading

CMDS = {0: 'REQ', 1: 'ABORT', 2: 'COMMIT', 3: 'FENCENB', 4: 'GETNB', 5: 'FINALIZE', 6: 'PUBLISHNB',
        7: 'LOOKUPNB', 8: 'UNPUBLISHNB', 9: 'SPAWNNB', 10: 'CONNECTNB', 11: 'DISCONNECTNB',
        12: 'NOTIFY', 13: 'REGEVENTS', 14: 'DEREGEVENTS', 15: 'QUERY', 16: 'LOG', 17: 'ALLOC',
        18: 'JOB_CONTROL', 22: 'IOF_PULL', 23: 'IOF_PUSH'}
SCOPES = {1: 'LOCAL', 2: 'REMOTE', 3: 'GLOBAL'}


def proxy(server_port, log, portfile):
    lock = threading.Lock()
    out = open(log, 'w')

    def pump(src, dst, direction):
        while True:
            try:
                data = src.recv(65536)
            except OSError:
                data = b''
            if not data:
                try:
                    dst.shutdown(socket.SHUT_WR)
                except OSError:
                    pass
                return
            with lock:
                out.write(json.dumps({'dir': direction, 'hex': data.hex()}) + '\n')
                out.flush()
            dst.sendall(data)

    ls = socket.socket()
    ls.bind(('127.0.0.1', 0))
    ls.listen(4)
    with open(portfile, 'w') as f:
        f.write(str(ls.getsockname()[1]))
    while True:
        c, _ = ls.accept()
        s = socket.create_connection(('127.0.0.1', int(server_port)))
        threading.Thread(target=pump, args=(c, s, 'c2s'), daemon=True).start()
        threading.Thread(target=pump, args=(s, c, 's2c'), daemon=True).start()


class Buf:
    def __init__(self, b):
        self.b, self.i = b, 0

    def left(self):
        return len(self.b) - self.i

    def byte(self):
        if self.i >= len(self.b):
            raise ValueError('read past end')
        v = self.b[self.i]
        self.i += 1
        return v

    def raw(self, n):
        if self.i + n > len(self.b):
            raise ValueError('read past end')
        v = self.b[self.i:self.i + n]
        self.i += n
        return v

    def uv(self):  # flex128 unsigned varint
        v, shift = 0, 0
        for k in range(9):
            c = self.byte()
            if k == 8:
                return v | (c << 56)
            v |= (c & 0x7f) << shift
            shift += 7
            if not c & 0x80:
                return v

    def sv(self):  # zigzag
        u = self.uv()
        return (u >> 1) ^ -(u & 1)

    def string(self):
        n = self.sv()
        return None if n <= 0 else self.raw(n)[:-1].decode('latin1')

    def unit(self, fn):  # one pack call: num_vals, then the values
        return [fn(self) for _ in range(self.sv())]

    def one(self, fn):
        vals = self.unit(fn)
        if len(vals) != 1:
            raise ValueError('expected one value, unit has %d' % len(vals))
        return vals[0]


def value(b, t=None):
    t = b.uv() if t is None else t
    if t == 0:
        return None
    if t == 1:
        return b.byte() != 0
    if t in (2, 7, 12, 30, 32, 33, 34, 37, 43, 50, 51):
        return b.byte()
    if t in (3, 16, 17, 52, 56, 60):
        return b.string()
    if t in (4, 13, 14, 15, 19, 35, 40, 45, 57, 58):
        return b.uv()
    if t == 5:
        assert b.uv() == 14
        return b.uv()
    if t in (6, 8, 9, 10, 11, 20):
        return b.sv()
    if t == 18:
        return (b.sv(), b.sv())
    if t == 22:
        return proc(b)
    if t in (27, 42, 59):
        return 'bytes[%d]' % len(b.raw(b.uv()))
    if t == 39:
        et, n = b.uv(), b.uv()
        return [info(b) if et == 24 else value(b, et) for _ in range(n)]
    raise ValueError('value type %d not decoded' % t)


def proc(b):
    return (b.string(), b.uv())


def info(b):
    key, flags = b.string(), b.uv()
    return (key, value(b)) if flags in (0, 1, 2) else (key, 'flags=%d' % flags, value(b))


def kval(b):
    return (b.string(), value(b))


def kvals_of(raw):
    b, out = Buf(raw), []
    while b.left():
        out.append(b.one(kval)[0])
    return out


def request(cmd, b):
    size, u32, string, rank = Buf.uv, Buf.uv, Buf.string, Buf.uv
    if cmd == 2:
        out = []
        while b.left():
            scope = SCOPES.get(b.one(Buf.byte))
            buftype, n = None, None
            bt = b.sv()
            assert bt == 1, 'one BUFFER'
            buftype, n = b.byte(), b.uv()
            out.append((scope, kvals_of(b.raw(n))))
        return out
    if cmd in (3, 10, 11):
        b.one(size)
        procs = b.unit(proc)
        ninfo = b.one(size)
        return [procs, b.unit(info) if ninfo else []]
    if cmd == 4:
        ns, rk, ninfo = b.one(string), b.one(rank), b.one(size)
        inf = b.unit(info) if ninfo else []
        return [(ns, rk), inf, b.one(string) if b.left() else '(no key)']
    if cmd == 6:
        uid, ninfo = b.one(u32), b.one(size)
        return ['uid=%d' % uid, b.unit(info) if ninfo else []]
    if cmd in (7, 8):
        uid, nkeys = b.one(u32), b.one(size)
        keys = [b.one(string) for _ in range(nkeys)]
        ninfo = b.one(size)
        return ['uid=%d' % uid, keys, b.unit(info) if ninfo else []]
    if cmd == 16:
        ts, nd = b.one(Buf.uv), b.one(size)
        data = b.unit(info) if nd else []
        nr = b.one(size)
        return ['time=%d' % ts, data, b.unit(info) if nr else []]
    if cmd == 1:
        st, msg, n = b.one(Buf.sv), b.one(string), b.one(size)
        return [st, msg, b.unit(proc) if n else []]
    if cmd == 18:
        n = b.one(size)
        targets = b.unit(proc) if n else []
        ninfo = b.one(size)
        return [targets, b.unit(info) if ninfo else []]
    if cmd == 23:
        n = b.one(size)
        targets = b.unit(proc) if n else []
        ninfo = b.one(size)
        dirs = b.unit(info) if ninfo else []
        data = 'bytes[%d]' % len(b.one(lambda x: x.raw(x.uv()))) if b.left() else '(no data)'
        return [targets, dirs, data]
    b.i = len(b.b)
    return ['(body not decoded)']


def blobs(b, first):
    out = []
    while b.left():
        raw = b.one(lambda x: x.raw(x.uv()))
        ib = Buf(raw)
        head = ib.one(first)
        keys = []
        while ib.left():
            keys.append(ib.one(kval)[0])
        out.append((head, keys))
    return out


def reply(cmd, b):
    if cmd == 0:  # REQ: nspace, then job data KVALs
        ns = b.one(Buf.string)
        keys = []
        while b.left():
            keys.append(b.one(kval)[0])
        return [ns, keys]
    st = b.one(Buf.sv)
    if cmd == 4 and b.left():
        return [st, blobs(b, proc)]
    if cmd in (10, 11) and b.left():
        return [st, blobs(b, Buf.string)]
    if cmd == 7 and st == 0:
        n = b.one(Buf.uv)
        return [st, b.unit(lambda x: (proc(x), x.string(), value(x))) if n else []]
    if cmd == 9 and b.left():
        ns = b.one(Buf.string)
        keys = []
        while b.left():
            keys.append(b.one(kval)[0])
        return [st, ns, keys]
    if cmd in (13, 18) and b.left():
        b.i = len(b.b)
        return [st, '(...)']
    return [st]


def decode(path):
    rows = [json.loads(line) for line in open(path)]
    c2s = b''.join(bytes.fromhex(r['hex']) for r in rows if r['dir'] == 'c2s')
    s2c = b''.join(bytes.fromhex(r['hex']) for r in rows if r['dir'] == 's2c')
    n = struct.unpack('<I', c2s[8:12])[0]  # the connect message's header is host order
    c2s, s2c = c2s[16 + n:], s2c[8:]  # skip connect message; handshake reply = status, pindex
    asked = {}
    for stream, label in ((c2s, 'C>S'), (s2c, 'S>C')):
        i = 0
        while i + 16 <= len(stream):
            _, tag, nb, _ = struct.unpack('>iIII', stream[i:i + 16])
            b = Buf(stream[i + 16:i + 16 + nb])
            i += 16 + nb
            try:
                if label == 'C>S':
                    cmd = b.one(Buf.byte)
                    asked[tag] = cmd
                    what, out = CMDS.get(cmd, cmd), request(cmd, b)
                elif tag in asked:
                    what, out = 'reply to ' + CMDS.get(asked[tag], str(asked[tag])), reply(asked[tag], b)
                else:
                    what, out = 'push', ['%d bytes' % nb]
                    b.i = len(b.b)
                bad = '' if b.left() == 0 else '  <<< MISMATCH: %d bytes left' % b.left()
            except (ValueError, AssertionError) as e:
                what, out, bad = CMDS.get(asked.get(tag), '?'), [], '  <<< MISMATCH: %s' % e
            print('%s tag=%d %s %s%s' % (label, tag, what, out, bad))


if __name__ == '__main__':
    if len(sys.argv) >= 5 and sys.argv[1] == 'proxy':
        proxy(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) >= 3 and sys.argv[1] == 'decode':
        for p in sys.argv[2:]:
            print('=====', p)
            decode(p)
    else:
        sys.exit(__doc__)

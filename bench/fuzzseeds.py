#!/usr/bin/env python3
"""Writes the structure-aware seeds of issue #14 into the fuzz corpora
(PKG/testdata/fuzz/TARGET/hostile-*): nesting just inside and beyond the
limit of 1,000 levels in every recursive construct, long tokens, and JSON
documents nested deeply. Run from the repository root; the files are
committed, so go test runs them as regression inputs."""
import os

def golit(b):
    out = []
    for c in b:
        ch = chr(c)
        if ch == '"': out.append('\\"')
        elif ch == '\\': out.append('\\\\')
        elif ch == '\n': out.append('\\n')
        elif 32 <= c < 127: out.append(ch)
        else: out.append('\\x%02x' % c)
    return '"' + ''.join(out) + '"'

def write(pkg, target, name, *values):
    d = os.path.join(pkg, 'testdata', 'fuzz', target)
    os.makedirs(d, exist_ok=True)
    lines = ['go test fuzz v1']
    for v in values:
        if isinstance(v, bool): lines.append('bool(%s)' % ('true' if v else 'false'))
        elif isinstance(v, str): lines.append('string(%s)' % golit(v.encode()))
        else: lines.append('[]byte(%s)' % golit(v))
    with open(os.path.join(d, 'hostile-' + name), 'w') as f:
        f.write('\n'.join(lines) + '\n')

def deep(o, m, c, n): return o * n + m + c * n

native = {
    'tuple': lambda n: 'locals {\n  x = ' + deep('[', '1', ']', n) + '\n}\n',
    'object': lambda n: 'locals {\n  x = ' + deep('{a=', '1', '}', n) + '\n}\n',
    'parens': lambda n: 'locals {\n  x = ' + deep('(', '1', ')', n) + '\n}\n',
    'interp': lambda n: 'locals {\n  x = ' + deep('"${', '1', '}"', n // 2) + '\n}\n',
    'unary': lambda n: 'locals {\n  x = ' + '!' * n + 'true\n}\n',
    'cond': lambda n: 'locals {\n  x = ' + 'a ? b : ' * n + 'c\n}\n',
    'blocks': lambda n: 'resource "a" "b" {\n' + deep('x {\n', '', '}\n', n) + '}\n',
    'tmplif': lambda n: 'locals {\n  x = "' + deep('%{if a}', 'x', '%{endif}', n) + '"\n}\n',
}
json_ = {
    'tuple': lambda n: '{"locals": {"x": ' + deep('[', '1', ']', n) + '}}',
    'object': lambda n: '{"locals": {"x": ' + deep('{"a":', '1', '}', n) + '}}',
    'template': lambda n: '{"locals": {"x": "${' + deep('[', '1', ']', n) + '}"}}',
    'type': lambda n: '{"variable": {"v": {"type": "' + deep('list(', 'string', ')', n) + '"}}}',
}
long_tokens = {
    'ident': 'locals {\n  ' + 'a' * 100000 + ' = 1\n}\n',
    'string': 'locals {\n  x = "' + 'a' * 100000 + '"\n}\n',
    'number': 'locals {\n  x = ' + '9' * 100000 + '\n}\n',
    'heredoc': 'locals {\n  x = <<' + 'E' * 10000 + '\n[[[[\n' + 'E' * 10000 + '\n}\n',
}

for n in (990, 1010):
    for k, g in native.items():
        src = g(n).encode()
        write('config', 'FuzzLoad', 'native-%s-%d' % (k, n), src, False, False)
        write('config', 'FuzzRenderRoundTrip', 'native-%s-%d' % (k, n), src, False)
        write('internal/nesting', 'FuzzDepth', 'native-%s-%d' % (k, n), src)
    for k, g in json_.items():
        src = g(n).encode()
        write('config', 'FuzzLoad', 'json-%s-%d' % (k, n), src, True, False)
        write('config', 'FuzzRenderRoundTrip', 'json-%s-%d' % (k, n), src, True)
    lock = ('provider "registry.opentofu.org/a/b" {\n  version = "1.0.0"\n  hashes = ' + deep('[', '"h1:x"', ']', n) + '\n}\n').encode()
    write('lockfile', 'FuzzRead', 'hashes-%d' % n, lock)
    write('cliconfig', 'FuzzLoadCLIConfig', 'hcl-%d' % n, ('host "x" ' + deep('{a=', '1', '}', n) + '\n').encode())
    write('cliconfig', 'FuzzLoadCLIConfig', 'json-%d' % n, ('{"a": ' + deep('[', '1', ']', n) + '}').encode())
for k, src in long_tokens.items():
    write('config', 'FuzzLoad', 'long-' + k, src.encode(), False, False)
    write('lockfile', 'FuzzRead', 'long-' + k, src.encode())
for n in (90, 110, 5000):
    write('registry', 'FuzzDecodeVersions', 'deep-%d' % n, ('{"versions": [{"version": "1.0.0", "protocols": ' + deep('[', '', ']', n) + '}]}').encode())
    write('registry', 'FuzzDecodePackage', 'deep-%d' % n, ('{"protocols": ["5.0"], "signing_keys": ' + deep('{"a":', '1', '}', n) + '}').encode())
    write('registry', 'FuzzDecodeDiscovery', 'deep-%d' % n, ('{"providers.v1": ' + deep('[', '', ']', n) + '}').encode())
    write('providersource', 'FuzzDecodeMirrorIndex', 'deep-%d' % n, ('{"versions": {"1.0.0": ' + deep('[', '', ']', n) + '}}').encode())
    write('providersource', 'FuzzDecodeMirrorVersion', 'deep-%d' % n, ('{"archives": {"linux_amd64": ' + deep('{"a":', '1', '}', n) + '}}').encode())
write('addrs', 'FuzzParseProviderSource', 'long-label', 'a' * 1024 + '.com/a/b')
write('versions', 'FuzzParseConstraints', 'long', '>= ' + '1.' * 5000 + '1')

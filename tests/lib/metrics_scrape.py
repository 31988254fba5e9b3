"""metrics_scrape.py - caret live --metrics read as a scraper reads it
(tests/integration/test_live_metrics_http.sh, tests/real/test_real_metrics.sh).

As a command:
  metrics_scrape.py get URL [--openmetrics] [--method M]
      prints the status, the Content-Type, then the body
  metrics_scrape.py value URL NAME [LABEL=VALUE...]
      prints the sum of the samples of NAME with those labels (nothing
      printed and exit 1 when there is none)
"""
import re
import sys
import urllib.error
import urllib.request

OPENMETRICS = 'application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5'


def get(url, openmetrics=False, method='GET'):
    """(status, content type, body) of one request."""
    req = urllib.request.Request(url, method=method)
    if openmetrics:
        req.add_header('Accept', OPENMETRICS)
    try:
        with urllib.request.urlopen(req, timeout=10) as r:
            return r.status, r.headers.get('Content-Type', ''), r.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.headers.get('Content-Type', ''), e.read().decode()


_SAMPLE = re.compile(r'^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{(.*)\})? (\S+)$')
_LABEL = re.compile(r'([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"')


def unescape(v):
    return re.sub(r'\\(.)', lambda m: '\n' if m.group(1) == 'n' else m.group(1), v)


def samples(text):
    """[(name, {label: value}, float)] of every sample line."""
    out = []
    for line in text.splitlines():
        if not line or line.startswith('#'):
            continue
        m = _SAMPLE.match(line)
        if not m:
            raise ValueError('not a sample line: %r' % line)
        labels = {k: unescape(v) for k, v in _LABEL.findall(m.group(3) or '')}
        out.append((m.group(1), labels, float(m.group(4))))
    return out


def value(text, name, **labels):
    """The sum of NAME's samples with those labels; None when there is none."""
    found = [v for n, l, v in samples(text)
             if n == name and all(l.get(k) == w for k, w in labels.items())]
    return sum(found) if found else None


def main(argv):
    if argv[1] == 'get':
        status, ctype, body = get(argv[2], '--openmetrics' in argv,
                                  argv[argv.index('--method') + 1] if '--method' in argv
                                  else 'GET')
        print(status)
        print(ctype)
        sys.stdout.write(body)
        return 0
    if argv[1] == 'value':
        _, _, body = get(argv[2])
        v = value(body, argv[3], **dict(a.split('=', 1) for a in argv[4:]))
        if v is None:
            return 1
        print('%.15g' % v)
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv))

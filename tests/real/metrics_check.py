"""metrics_check.py - what a real Prometheus server scraped from caret live
--metrics, against caret live --json (tests/real/test_real_metrics.sh).

  metrics_check.py running PROM_URL PIDS PATH
      waits (30 s at most) until the server has every process of PIDS
      ("NAME PID" lines) up (caret_process_up 1), PATH's deadline miss
      counter above 0 and the alert CaretDeadlineMissed firing for PATH
  metrics_check.py stopped PROM_URL PIDS PATH LIVE_JSON
      waits (30 s at most) until every process of PIDS is gone (0) with
      CaretProcessGone firing for each, and the server's counters equal the
      totals of caret live --json's last window line: PATH's instances and
      misses, every callback's runs; then histogram_quantile(0.99) over
      PATH's buckets against the p99 caret live printed (its window covering
      the whole run): both in the bucket of the 99th percentile, or in the
      two buckets of the two instances it falls between. The tolerance is
      that bucket's width (or the two's): a histogram keeps counts per
      bucket, not the values, and histogram_quantile interpolates linearly
      inside the bucket where the rank 0.99 n falls, so it can be anywhere
      in it; caret live interpolates between the instances around rank
      0.99 (n - 1) + 1 (the analyzer's percentiles), which can straddle a
      bucket's bound.
"""
import json
import math
import sys
import time
import urllib.parse
import urllib.request


def api(prom, what, **params):
    url = '%s/api/v1/%s?%s' % (prom, what, urllib.parse.urlencode(params))
    with urllib.request.urlopen(url, timeout=10) as r:
        body = json.load(r)
    if body.get('status') != 'success':
        raise RuntimeError('%s: %s' % (url, body))
    return body['data']


def query(prom, expr):
    """{frozenset(labels): value} of an instant query."""
    return {frozenset(s['metric'].items()): float(s['value'][1])
            for s in api(prom, 'query', query=expr)['result']}


def firing(prom, alert):
    return [a['labels'] for a in api(prom, 'alerts')['alerts']
            if a['labels'].get('alertname') == alert and a['state'] == 'firing']


def pids_of(path):
    return {int(line.split()[1]) for line in open(path) if line.strip()}


def processes(prom):
    """{pid: up} from caret_process_up."""
    return {int(dict(k)['pid']): v for k, v in query(prom, 'caret_process_up').items()}


def one(values):
    return sum(values.values()) if values else None


def wait(what, check, seconds=30):
    """check() until it returns None (done) or time is up: its last words."""
    end = time.monotonic() + seconds
    while True:
        why = check()
        if why is None:
            return None
        if time.monotonic() > end:
            return '%s: %s after %d s' % (what, why, seconds)
        time.sleep(0.5)


def running(prom, pids, path):
    def check():
        up = processes(prom)
        if any(up.get(p) != 1 for p in pids):
            return 'caret_process_up %s, the apps %s' % (up, sorted(pids))
        misses = one(query(prom, 'caret_path_deadline_misses_total{path="%s"}' % path))
        if not misses:
            return 'caret_path_deadline_misses_total %s' % misses
        if not any(a.get('path') == path for a in firing(prom, 'CaretDeadlineMissed')):
            return 'CaretDeadlineMissed not firing (misses %g)' % misses
        return None
    why = wait('while the apps run', check)
    if why:
        return why
    print('running: %d processes up, CaretDeadlineMissed firing for %s (misses %g)' %
          (len(pids), path, one(query(prom, 'caret_path_deadline_misses_total'))))
    return None


def last_window(live_json):
    lines = [json.loads(l) for l in open(live_json) if l.startswith('{"type": "window"')]
    return lines[-1]


def stopped(prom, pids, path, live_json):
    def gone():
        up = processes(prom)
        if any(up.get(p) != 0 for p in pids):
            return 'caret_process_up %s' % up
        alerted = {int(a['pid']) for a in firing(prom, 'CaretProcessGone')}
        if not pids <= alerted:
            return 'CaretProcessGone firing for %s only' % sorted(alerted)
        return None
    why = wait('after the apps stopped', gone)
    if why:
        return why
    print('stopped: every process 0, CaretProcessGone firing for each')
    state = {}

    def same():
        w = last_window(live_json)
        p = [x for x in w['paths'] if x['name'] == path][0]
        got = (one(query(prom, 'caret_path_instances_total{path="%s"}' % path)),
               one(query(prom, 'caret_path_deadline_misses_total{path="%s"}' % path)),
               one(query(prom, 'sum(caret_callback_runs_total)')))
        want = (p['total'], p['total_misses'], sum(c['total'] for c in w['callbacks']))
        state.update(window=w, path=p, got=got, want=want)
        if got != want:
            return 'Prometheus (instances, misses, callback runs) %s, caret live --json %s' % (
                got, want)
        return None
    why = wait('the counts', same)
    if why:
        return why
    p = state['path']
    print('counts: %d instances, %d misses, %d callback runs: the same in Prometheus and '
          'caret live --json' % state['want'])
    if p['count'] != p['total']:
        return 'the window (%d) does not cover the run (%d)' % (p['count'], p['total'])
    est = one(query(prom, 'histogram_quantile(0.99, caret_path_latency_seconds_bucket'
                    '{path="%s"})' % path))
    buckets = sorted((float(dict(k)['le']), v) for k, v in
                     query(prom, 'caret_path_latency_seconds_bucket{path="%s"}' % path).items())
    n = buckets[-1][1]

    def bucket(rank):
        """(lower, upper] of the bucket holding the rank-th smallest instance"""
        i = next(i for i, (le, cum) in enumerate(buckets) if cum >= rank)
        return (buckets[i - 1][0] if i else 0.0), buckets[i][0]
    # caret live's p99 lies between the floor(r)-th and ceil(r)-th smallest
    # instances, r = 0.99 (n - 1) + 1 (linear interpolation);
    # histogram_quantile interpolates in the bucket of the ceil(0.99 n)-th
    r = 0.99 * (n - 1) + 1
    low = bucket(math.floor(r))[0]
    high = max(bucket(math.ceil(r))[1], bucket(math.ceil(0.99 * n))[1])
    p99 = p['p99_ns'] / 1e9
    print('p99: caret live --json %.6f s; Prometheus histogram_quantile %.6f s; the buckets '
          'of the 99th percentile span (%g, %g] s (the tolerance: their width, %g s)' %
          (p99, est, low, high, high - low))
    if not (low <= p99 <= high and low <= est <= high):
        return 'p99 %.6f s and histogram_quantile\'s %.6f s are not both in (%g, %g] s' % (
            p99, est, low, high)
    return None


def main(argv):
    phase, prom, pids, path = argv[1], argv[2], pids_of(argv[3]), argv[4]
    why = running(prom, pids, path) if phase == 'running' else stopped(
        prom, pids, path, argv[5])
    if why:
        print('FAIL: ' + why)
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv))

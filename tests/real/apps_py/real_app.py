# real_app.py - what every real rclpy test app shares: its options, and its
# ground truth in the files and columns tests/real/apps/real_app.hpp writes
# (testbed/runtime/truth.c, docs/testbed.md), so that the checkers of
# tests/real check a Python node as they check an rclcpp one.
#
# A callback is named by the rcl handle of its timer, subscription or
# service (entity.handle.pointer), its callback address written "?" (the
# tracer's is rclpy's object, which the checkers find by that handle). A
# callback group and an executor are named by their Python object (id()),
# as rclpy's are traced. Clocks: CLOCK_MONOTONIC (LTTng's), read inside the
# callbacks.
#
# Messages are std_msgs/Header: stamp = the chain's origin (the start of
# the timer run that began it), frame_id = "<publisher id>:<seq>".
import functools
import itertools
import os
import resource
import sys
import threading
import time

import rclpy
import rclpy.executors
from rclpy.callback_groups import ReentrantCallbackGroup
from std_msgs.msg import Header

UNKNOWN = object()  # an address the app cannot know: "?"


def now_ns():
    return time.clock_gettime_ns(time.CLOCK_MONOTONIC)


def work_us(us):
    """Busy work, as a callback's own computation."""
    until = now_ns() + us * 1000
    while now_ns() < until:
        pass


def usage(what):
    prog = os.path.basename(sys.argv[0])
    sys.stderr.write(
        f'{prog}: {what}\nusage: {prog} [--process NAME] [--truth DIR] [--duration S] '
        '[--nodes A,B,...] [--period-ms N] [--stall MS@S] [--busy MS:EVERY] '
        '[--filter-work US] [--ros-args ...]\n')
    sys.exit(2)


class Options:
    def __init__(self):
        self.process = 'app'
        self.truth_dir = ''
        self.duration_s = 3.0
        self.nodes = []
        self.period_ms = 20
        self.stall_ms = 0
        self.stall_at_s = 0.0
        self.busy_ms = 10
        self.busy_every_ms = 50
        self.filter_work_us = 0


def parse(argv):
    """Our options (real_app.hpp's, those rclpy has a meaning for); the rest
    (--ros-args ...) is rclpy's."""
    o = Options()
    i = 1
    while i < len(argv):
        a = argv[i]
        if a == '--ros-args':
            break

        def value():
            if i + 1 >= len(argv):
                usage(f'{a} needs a value')
            return argv[i + 1]
        try:
            if a == '--process':
                o.process = value()
            elif a == '--truth':
                o.truth_dir = value()
            elif a == '--duration':
                o.duration_s = float(value())
            elif a == '--period-ms':
                o.period_ms = int(value())
            elif a == '--nodes':
                o.nodes = [n for n in value().split(',') if n]
            elif a == '--stall':
                ms, at = value().split('@')
                o.stall_ms, o.stall_at_s = int(ms), float(at)
            elif a == '--busy':
                ms, every = value().split(':')
                o.busy_ms, o.busy_every_ms = int(ms), int(every)
            elif a == '--filter-work':
                o.filter_work_us = int(value())
                if o.filter_work_us < 0:
                    usage('--filter-work takes microseconds, 0 or more')
            elif a in ('--intra', '--executor', '--filter-timer'):
                usage(f'{a}: not in the rclpy apps')
            else:
                usage(f'unknown option {a}')
        except ValueError:
            usage(f'bad value for {a}')
        i += 2
    return o


def address(p):
    """An address as truth.c writes it (%p)."""
    if p is UNKNOWN:
        return '?'
    return hex(p) if p else '(nil)'


def symbol_of(fn):
    """What a user reads as a Python callback's name: module.qualname."""
    return f'{fn.__module__}.{fn.__qualname__}'


def group_type(group):
    return 'reentrant' if isinstance(group, ReentrantCallbackGroup) else 'mutually_exclusive'


class Truth:
    """The process's ground truth: DIR/<process>.<kind>.<pid>.csv, and at its
    end DIR/<process>.cpu.<pid> ("user_ns system_ns")."""

    HEADERS = {
        'entities': 'pid,kind,node,name,handle,callback,group,symbol,period_ns,time_ns',
        'callbacks': 'pid,node,callback_name,callback,kind,tid,start_ns,end_ns',
        'publishes': 'pid,node,topic,publisher,seq,stamp_ns,origin_ns,time_ns,'
                     'intra_subscriptions,inter_process',
        'receives': 'pid,node,callback_name,topic,publisher,seq,stamp_ns,origin_ns,'
                    'source_timestamp,time_ns,delivery',
        'e2e': 'pid,node,callback_name,topic,publisher,seq,origin_ns,end_ns,latency_ns',
    }

    def __init__(self, o):
        self.pid = os.getpid()
        self.dir, self.process = o.truth_dir, o.process
        self.files = {}
        self.lock = threading.Lock()
        if self.dir:
            os.makedirs(self.dir, exist_ok=True)
            for kind, header in self.HEADERS.items():
                f = open(os.path.join(self.dir, f'{self.process}.{kind}.{self.pid}.csv'), 'w')
                f.write(header + '\n')
                self.files[kind] = f

    def close(self):
        for f in self.files.values():
            f.close()
        self.files = {}
        if self.dir:
            u = resource.getrusage(resource.RUSAGE_SELF)
            with open(os.path.join(self.dir, f'{self.process}.cpu.{self.pid}'), 'w') as f:
                f.write(f'{int(u.ru_utime * 1e9)} {int(u.ru_stime * 1e9)}\n')

    def write(self, kind, *columns):
        if kind in self.files:
            with self.lock:
                self.files[kind].write(','.join(str(c) for c in (self.pid,) + columns) + '\n')

    def entity(self, kind, node, name, handle, callback=None, group=None, symbol='',
               period=0, at=None):
        self.write('entities', kind, node, name, address(handle), address(callback),
                   address(group), symbol, period, now_ns() if at is None else at)

    def node(self, node):
        """A node as rclpy made it: the node, its default group, and what
        rcl and rclpy made in it (the /rosout publisher, the /parameter_events
        one, the parameter and type description services). Called before
        the app adds its own objects, so rows stay in creation order."""
        fqn = node.get_fully_qualified_name()
        self.entity('node', fqn, node.get_name(), node.handle.pointer)
        self.callback_group(node, node.default_callback_group)
        self.entity('publisher', fqn, '/rosout', UNKNOWN)
        for p in node.publishers:
            self.entity('publisher', fqn, p.topic_name, p.handle.pointer)
        for kind, entities in (('subscription', node.subscriptions),
                               ('service', node.services), ('timer', node.timers)):
            for e in entities:
                name = e.topic_name if kind == 'subscription' else (
                    e.handle.name if kind == 'service' else 'timer')
                self.entity(kind, fqn, name, e.handle.pointer, UNKNOWN, id(e.callback_group),
                            '?')
        for c in node.clients:
            self.client(node, c)

    def client(self, node, c):
        self.entity('client', node.get_fully_qualified_name(), c.handle.service_name,
                    c.handle.pointer, None, id(c.callback_group))

    def service(self, node, s, symbol):
        self.entity('service', node.get_fully_qualified_name(), s.handle.name, s.handle.pointer,
                    UNKNOWN, id(s.callback_group), symbol)

    def callback_group(self, node, group):
        self.entity('callback_group', node.get_fully_qualified_name(), group_type(group), None,
                    None, id(group))

    def executor(self, executor, kind):
        self.entity('executor', '', kind, id(executor), None)

    def executor_node(self, executor, node):
        """Every group of node the executor took with it."""
        groups = {id(g): g for g in [node.default_callback_group] + [
            e.callback_group for e in itertools.chain(
                node.subscriptions, node.timers, node.services, node.clients)]}
        for g in groups.values():
            self.entity('executor_group', node.get_fully_qualified_name(), group_type(g),
                        id(executor), None, id(g))

    def callback(self, node, name, handle, kind, start, end):
        self.write('callbacks', node, name, address(handle), kind, threading.get_native_id(),
                   start, end)


class Run:
    """One callback run, timed from its construction to finish() or the end
    of its with block."""

    def __init__(self, truth, node, name, handle, kind):
        self.truth, self.node, self.name, self.handle, self.kind = truth, node, name, handle, kind
        self.start = now_ns()
        self.end = 0

    def finish(self):
        self.end = now_ns()
        return self.end

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.truth.callback(self.node, self.name, self.handle, self.kind, self.start,
                            self.end or now_ns())
        return False


_next_publisher = itertools.count(1)


class Publisher:
    """A Header publisher that writes every publish into the truth."""

    def __init__(self, truth, node, topic, depth=10):
        self.truth, self.node = truth, node.get_fully_qualified_name()
        self.pub = node.create_publisher(Header, topic, depth)
        self.topic = self.pub.topic_name
        self.id = (os.getpid() << 20) | next(_next_publisher)
        self.seq = 0
        truth.entity('publisher', self.node, self.topic, self.pub.handle.pointer)

    def publish(self, origin):
        """A message of the chain that began at origin."""
        msg = Header()
        msg.stamp.sec, msg.stamp.nanosec = divmod(origin, 1000000000)
        self.seq += 1
        msg.frame_id = f'{self.id}:{self.seq}'
        inter = self.pub.get_subscription_count() > 0  # rclpy: no intra-process
        t = now_ns()
        self.pub.publish(msg)
        self.truth.write('publishes', self.node, self.topic, self.id, self.seq, origin, origin,
                         t, 0, int(inter))


def received(msg):
    """(publisher id, seq, origin) of a received Header."""
    origin = msg.stamp.sec * 1000000000 + msg.stamp.nanosec
    publisher, _, seq = msg.frame_id.partition(':')
    try:
        return int(publisher), int(seq), origin
    except ValueError:
        return 0, 0, origin


def timer(truth, node, period_ms, name, fn, group=None):
    """A timer of node whose every run goes into the truth as `name`;
    fn(run) is the run's work (the callback rclpy runs carries fn's name)."""
    fqn, handle = node.get_fully_qualified_name(), [None]

    @functools.wraps(fn)
    def callback():
        with Run(truth, fqn, name, handle[0], 'timer') as run:
            fn(run)
    # the clock the firings count from is rcl's, read at its init: just
    # before the one read here
    created = now_ns()
    t = node.create_timer(period_ms / 1000.0, callback, callback_group=group)
    handle[0] = t.handle.pointer
    truth.entity('timer', fqn, 'timer', handle[0], UNKNOWN, id(t.callback_group),
                 symbol_of(callback), period_ms * 1000000, created)
    return t


def subscription(truth, node, topic, name, fn, group=None):
    """A Header subscription of node whose every run and message go into the
    truth as `name`; fn(msg, run) is the run's work."""
    fqn, handle = node.get_fully_qualified_name(), [None]

    def callback(msg, info):
        with Run(truth, fqn, name, handle[0], 'subscription') as run:
            publisher, seq, origin = received(msg)
            truth.write('receives', fqn, name, topic, publisher, seq, origin, origin,
                        info['source_timestamp'], run.start, 'inter')
            fn(msg, run)
    # rclpy passes the message info to a callback of two parameters; the
    # callback rclpy runs carries fn's name
    callback.__module__, callback.__qualname__ = fn.__module__, fn.__qualname__
    s = node.create_subscription(Header, topic, callback, 10, callback_group=group)
    handle[0] = s.handle.pointer
    truth.entity('subscription', fqn, s.topic_name, handle[0], UNKNOWN, id(s.callback_group),
                 symbol_of(callback))
    return s


def spin_for(executor, duration_s):
    """Spins executor until duration_s has passed or rclpy is shut down
    (SIGINT: rclpy's handler shuts its context down). Each wait ends within
    0.1 s (spin_once's timeout), not only when another thread wakes the
    executor: on Fast DDS such a wake can be lost while rclpy builds its
    wait set (rmw_fastrtps' guard conditions, ros2/rcl#989), and an app
    stopped that way (Executor.wake, or the SIGINT guard condition) waited
    forever (seen: 3 of about 150 processes)."""
    until = time.monotonic() + duration_s
    try:
        while rclpy.ok() and time.monotonic() < until:
            executor.spin_once(timeout_sec=0.1)
    except (KeyboardInterrupt, rclpy.executors.ExternalShutdownException):
        pass
    except Exception:
        # SIGINT shut rclpy down while the executor called into rcl (an
        # RCLError: its context invalid): the app is stopping. Else it is
        # an error.
        if rclpy.ok():
            raise


def main(run_nodes, o):
    """rclpy around run_nodes(truth): its truth closed at the end, then rclpy
    shut down unless SIGINT did."""
    rclpy.init(args=sys.argv)
    truth = Truth(o)
    try:
        run_nodes(truth)
    finally:
        truth.close()
        if rclpy.ok():
            rclpy.shutdown()

#!/usr/bin/env python3
# real_pipeline.py - tests/real/apps/pipeline.cpp on rclpy: /sensor
# publishes /topic_a from a timer, /filter republishes each message on
# /topic_b, /sink ends the chain. --nodes picks the nodes of this process
# (all three by default), one SingleThreadedExecutor; --stall MS@S makes
# /filter sleep MS ms once, S seconds after it started; --busy MS:EVERY
# with the node "busy" keeps the executor busy; --filter-work US makes
# /filter's callback spin US microseconds more. The same truth as the C++
# app (real_app.py), so a chain may mix the two.
import sys
import time

from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

import real_app


class Sensor(Node):
    def __init__(self, truth, period_ms):
        super().__init__('sensor')
        truth.node(self)
        self.pub = real_app.Publisher(truth, self, '/topic_a')
        self.timer = real_app.timer(truth, self, period_ms, 'timer_callback_0', self.on_timer)

    def on_timer(self, run):
        real_app.work_us(100)
        self.pub.publish(run.start)


class Busy(Node):
    def __init__(self, truth, busy_ms, every_ms):
        super().__init__('busy')
        truth.node(self)
        self.busy_ms = busy_ms
        self.timer = real_app.timer(truth, self, every_ms, 'timer_callback_0', self.on_timer)

    def on_timer(self, run):
        real_app.work_us(self.busy_ms * 1000)


class Relay(Node):
    """Receives on `inp`; republishes on `out` unless it is empty (then it
    ends the chain, writing each message's end-to-end latency)."""

    def __init__(self, truth, name, inp, out, stall_ms=0, stall_at_s=0.0, work_us=0):
        super().__init__(name)
        truth.node(self)
        self.truth, self.inp = truth, inp
        self.stall_ms, self.work_us = stall_ms, work_us
        self.stall_at = real_app.now_ns() + int(stall_at_s * 1e9)
        self.pub = real_app.Publisher(truth, self, out) if out else None
        self.sub = real_app.subscription(truth, self, inp, 'subscription_callback_0',
                                         self.on_input)

    def on_input(self, msg, run):
        real_app.work_us(200 + self.work_us)
        if self.stall_ms > 0 and real_app.now_ns() >= self.stall_at:
            time.sleep(self.stall_ms / 1000.0)
            self.stall_ms = 0
        publisher, seq, origin = real_app.received(msg)
        if self.pub:
            self.pub.publish(origin)
        elif origin != 0:
            self.truth.write('e2e', self.get_fully_qualified_name(), 'subscription_callback_0',
                             self.inp, publisher, seq, origin, run.finish(),
                             run.end - origin)


def run_nodes(truth, o):
    executor = SingleThreadedExecutor()
    truth.executor(executor, 'single_threaded_executor')
    nodes = []
    for n in o.nodes:
        if n == 'sensor':
            nodes.append(Sensor(truth, o.period_ms))
        elif n == 'filter':
            nodes.append(Relay(truth, 'filter', '/topic_a', '/topic_b', o.stall_ms,
                               o.stall_at_s, o.filter_work_us))
        elif n == 'sink':
            nodes.append(Relay(truth, 'sink', '/topic_b', ''))
        elif n == 'busy':
            nodes.append(Busy(truth, o.busy_ms, o.busy_every_ms))
        else:
            real_app.usage(f'no node {n}')
        executor.add_node(nodes[-1])
        truth.executor_node(executor, nodes[-1])
    real_app.spin_for(executor, o.duration_s)
    executor.shutdown()
    for node in nodes:
        node.destroy_node()


if __name__ == '__main__':
    options = real_app.parse(sys.argv)
    options.nodes = options.nodes or ['sensor', 'filter', 'sink']
    real_app.main(lambda truth: run_nodes(truth, options), options)
    print('real_pipeline.py: ' + ' '.join(options.nodes) + ' done')

#!/usr/bin/env python3
# real_executors.py - tests/real/apps/executors.cpp's layouts on rclpy's
# MultiThreadedExecutor (three threads), one process: /timers has two
# timers of the same period publishing /ticks in a MutuallyExclusive
# group of its own (never at once); /listener has two subscriptions to
# /ticks in a Reentrant group (the two may run at once: each sleeps 3 ms,
# the GIL released, long enough for the other one to run meanwhile).
import sys
import time

from rclpy.callback_groups import MutuallyExclusiveCallbackGroup, ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor
from rclpy.node import Node

import real_app


class Timers(Node):
    def __init__(self, truth, period_ms):
        super().__init__('timers')
        truth.node(self)
        self.group = MutuallyExclusiveCallbackGroup()
        truth.callback_group(self, self.group)
        self.pub = real_app.Publisher(truth, self, '/ticks')
        self.ticking = [real_app.timer(truth, self, period_ms, f'timer_callback_{i}', self.on_timer,
                                      self.group) for i in range(2)]

    def on_timer(self, run):
        real_app.work_us(150)
        self.pub.publish(run.start)


class Listener(Node):
    def __init__(self, truth):
        super().__init__('listener')
        truth.node(self)
        self.group = ReentrantCallbackGroup()
        truth.callback_group(self, self.group)
        self.subs = [real_app.subscription(truth, self, '/ticks', f'subscription_callback_{i}',
                                           self.on_tick, self.group) for i in range(2)]

    def on_tick(self, msg, run):
        time.sleep(0.003)


def run_nodes(truth, o):
    executor = MultiThreadedExecutor(num_threads=3)
    truth.executor(executor, 'multi_threaded_executor')
    nodes = [Listener(truth), Timers(truth, o.period_ms)]
    for node in nodes:
        executor.add_node(node)
        truth.executor_node(executor, node)
    real_app.spin_for(executor, o.duration_s)
    executor.shutdown()
    for node in nodes:
        node.destroy_node()


if __name__ == '__main__':
    options = real_app.parse(sys.argv)
    real_app.main(lambda truth: run_nodes(truth, options), options)
    print('real_executors.py: done')

#!/usr/bin/env python3
# real_services.py - tests/real/apps/services.cpp on rclpy: /server provides
# /list_params (rcl_interfaces/srv/ListParameters: the jazzy-rclpy tree has
# no composition_interfaces for Python); /client calls it from a timer
# whenever the service is there and no call is pending. --nodes picks them
# (both by default), one SingleThreadedExecutor.
# Besides the truth of every app, each call in DIR/<process>.calls.<pid>.csv
# as services.cpp writes it: the client's (its sequence number, just before
# call_async, and the moment rclpy gives the response to the call's future,
# in the executor's run of the client, as rclcpp runs a response callback)
# and the
# server's (the sequence number, the service callback's start and end).
# rclpy gives a service callback no request header: the client writes the
# sequence number it sends under in the request's depth (rcl numbers a
# client's requests 1, 2, ...; the client checks each against rclpy's).
import os
import sys
import threading

from rcl_interfaces.srv import ListParameters
from rclpy.executors import SingleThreadedExecutor
from rclpy.node import Node

import real_app

SERVICE = '/list_params'


class Calls:
    """The calls of this process, written at its end."""

    def __init__(self, o):
        self.path = (os.path.join(o.truth_dir, f'{o.process}.calls.{os.getpid()}.csv')
                     if o.truth_dir else '')
        self.rows, self.lock = [], threading.Lock()

    def add(self, role, seq, start, end):
        with self.lock:
            self.rows.append((role, seq, start, end))

    def write(self):
        if self.path:
            with open(self.path, 'w') as f:
                f.write('role,sequence_number,start_ns,end_ns\n')
                for row in self.rows:
                    f.write(','.join(str(c) for c in row) + '\n')


class Server(Node):
    def __init__(self, truth, calls):
        super().__init__('server')
        truth.node(self)
        self.truth, self.calls = truth, calls
        self.service = self.create_service(ListParameters, SERVICE, self.on_request)
        truth.service(self, self.service, real_app.symbol_of(self.on_request))

    def on_request(self, request, response):
        with real_app.Run(self.truth, self.get_fully_qualified_name(), 'service_callback_0',
                          self.service.handle.pointer, 'service') as run:
            real_app.work_us(300)
            response.result.names = [self.get_fully_qualified_name()]
            self.calls.add('server', request.depth, run.start, run.finish())
        return response


class Client(Node):
    def __init__(self, truth, calls, period_ms):
        super().__init__('client')
        truth.node(self)
        self.calls = calls
        self.client = self.create_client(ListParameters, SERVICE)
        truth.client(self, self.client)
        self.pending, self.sent, self.seq = False, 0, 0
        self.timer = real_app.timer(truth, self, period_ms, 'timer_callback_0', self.on_timer)

    def on_timer(self, run):
        if self.pending or not self.client.service_is_ready():
            return
        self.pending = True
        request = ListParameters.Request()
        request.depth = self.seq + 1
        self.sent = real_app.now_ns()
        future = self.client.call_async(request)
        sent_as = [s for s, f in self.client._pending_requests.items() if f is future]
        if sent_as != [request.depth]:
            raise RuntimeError(f'request {request.depth} sent as {sent_as}')
        self.seq = request.depth
        # the response reaches the app when the executor's run of the
        # client gives it to the future (rclpy runs done callbacks later,
        # as tasks of their own): the clock read there
        deliver = future.set_result

        def on_response(response):
            self.calls.add('client', self.seq, self.sent, real_app.now_ns())
            self.pending = False
            deliver(response)
        future.set_result = on_response


def run_nodes(truth, o):
    calls = Calls(o)
    executor = SingleThreadedExecutor()
    truth.executor(executor, 'single_threaded_executor')
    nodes = []
    for n in o.nodes:
        if n == 'server':
            nodes.append(Server(truth, calls))
        elif n == 'client':
            nodes.append(Client(truth, calls, o.period_ms))
        else:
            real_app.usage(f'no node {n}')
        executor.add_node(nodes[-1])
        truth.executor_node(executor, nodes[-1])
    try:
        real_app.spin_for(executor, o.duration_s)
    finally:
        calls.write()
    executor.shutdown()
    for node in nodes:
        node.destroy_node()


if __name__ == '__main__':
    options = real_app.parse(sys.argv)
    options.nodes = options.nodes or ['server', 'client']
    real_app.main(lambda truth: run_nodes(truth, options), options)
    print('real_services.py: done')

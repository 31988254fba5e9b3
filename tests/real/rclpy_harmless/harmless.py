"""An rclpy program whose output is the same however long it runs and
whatever records it: what it prints depends on what it did, never on when
(test_real_rclpy_harmless.sh runs it without the tracer, with it, and
recorded, and compares). In one process:

  /talker   create_timer at 20 Hz -> /chatter
  /relay    /chatter -> 1 ms of work -> /relayed (a reentrant group)
  /listener /relayed; /numbers, published by two threads of the program's
            own (100 each, concurrently, from outside the executor)
  /server   a service (rcl_interfaces/srv/GetParameters)
  /asker    a coroutine timer callback calling it (await), at 50 Hz

The nodes run on a MultiThreadedExecutor of 4 threads spun by the main
thread until the fixed work is done and --duration seconds passed, or
until the file --until names exists (a recorded run; 60 s at most). Then

  /ticker   a timer and a subscription to /faults run by
            rclpy.spin_once(node, timeout_sec) loops: the subscription
            raises ValueError on each of its 2 messages, caught around
            spin_once (the tracebacks printed on stdout); once told to end,
            the timer raises RuntimeError: uncaught, the program ends with
            a traceback (exit status 1)
 --ready FILE: created once the pipeline runs. Also: the program's
own ctypes calls (a C function, a Python callback from C) and threads.

usage: harmless.py [--duration S] [--until FILE] [--ready FILE] [--ros-args ...]
"""
import argparse
import ctypes
import os
import threading
import time
import traceback

import rclpy
from rclpy.callback_groups import ReentrantCallbackGroup
from rclpy.executors import MultiThreadedExecutor
from rclpy.node import Node
from rclpy.qos import QoSProfile, ReliabilityPolicy
from rcl_interfaces.msg import ParameterValue
from rcl_interfaces.srv import GetParameters
from std_msgs.msg import Int32, String

NUMBERS = 100  # per thread
CALLS = 5
FAULTS = 2
TICKS = 10
RELIABLE = QoSProfile(depth=1000, reliability=ReliabilityPolicy.RELIABLE)


def own_ctypes():
    """The program's own ctypes: a libc call and a Python callback from C."""
    libc = ctypes.CDLL(None)
    print('ctypes strlen:', libc.strlen(b'harmless'))
    values = (ctypes.c_int * 5)(5, 1, 4, 2, 3)
    compare = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                               ctypes.POINTER(ctypes.c_int))
    libc.qsort(values, len(values), ctypes.sizeof(ctypes.c_int),
               compare(lambda a, b: a[0] - b[0]))
    print('ctypes qsort:', list(values))
    print('ctypes Py_IsInitialized:', ctypes.pythonapi.Py_IsInitialized())


class Talker(Node):
    def __init__(self):
        super().__init__('talker')
        self.pub = self.create_publisher(String, 'chatter', RELIABLE)
        self.count = 0
        self.create_timer(0.05, self.tick)

    def tick(self):
        self.count += 1
        self.pub.publish(String(data=f'tick {self.count}'))


class Relay(Node):
    def __init__(self):
        super().__init__('relay')
        group = ReentrantCallbackGroup()
        self.pub = self.create_publisher(String, 'relayed', RELIABLE)
        self.create_subscription(String, 'chatter', self.on_chatter, RELIABLE,
                                 callback_group=group)
        self.relayed = 0

    def on_chatter(self, msg):
        end = time.monotonic() + 0.001
        while time.monotonic() < end:
            pass
        self.relayed += 1
        self.pub.publish(String(data=msg.data))


class Listener(Node):
    def __init__(self):
        super().__init__('listener')
        self.heard = 0
        self.numbers = []
        self.lock = threading.Lock()
        self.create_subscription(String, 'relayed', self.on_relayed, RELIABLE)
        self.create_subscription(Int32, 'numbers', self.on_number, RELIABLE,
                                 callback_group=ReentrantCallbackGroup())

    def on_relayed(self, msg):
        self.heard += 1

    def on_number(self, msg):
        with self.lock:
            self.numbers.append(msg.data)


class Server(Node):
    def __init__(self):
        super().__init__('server')
        self.create_service(GetParameters, 'harmless/get', self.on_request)

    def on_request(self, request, response):
        response.values = [ParameterValue(type=4, string_value=name.upper())
                           for name in request.names]
        return response


class Asker(Node):
    def __init__(self):
        super().__init__('asker')
        # its own group: the timer's run, awaiting the answer, holds its
        self.client = self.create_client(GetParameters, 'harmless/get',
                                         callback_group=ReentrantCallbackGroup())
        self.answers = []  # the first CALLS; the later ones (as long as it
        self.wrong = 0     # runs) checked
        self.calls = 0
        self.busy = False
        self.create_timer(0.02, self.ask)

    async def ask(self):
        if self.busy or not self.client.service_is_ready():
            return
        self.busy = True
        n = self.calls
        self.calls += 1
        request = GetParameters.Request(names=[f'call{n}', 'x'])
        response = await self.client.call_async(request)
        answer = ','.join(v.string_value for v in response.values)
        if n < CALLS:
            self.answers.append(answer)
        elif answer != f'CALL{n},X':
            self.wrong += 1
        self.busy = False


class Ticker(Node):
    """Run by rclpy.spin_once(node, timeout_sec) loops: a timer that
    raises once told to end, a subscription that raises on each message."""

    def __init__(self):
        super().__init__('ticker')
        self.ticks = 0
        self.ending = False
        self.create_timer(0.01, self.tick)
        self.pub = self.create_publisher(Int32, 'faults', RELIABLE)
        self.create_subscription(Int32, 'faults', self.on_fault, RELIABLE)

    def tick(self):
        self.ticks += 1
        if self.ending:
            raise RuntimeError('the end')

    def on_fault(self, msg):
        raise ValueError(f'fault {msg.data}')


def publish_numbers(node, first):
    """A thread of the program's own, publishing outside the executor."""
    pub = node.create_publisher(Int32, 'numbers', RELIABLE)
    while pub.get_subscription_count() < 1:
        time.sleep(0.01)
    for i in range(NUMBERS):
        pub.publish(Int32(data=first + i))
        time.sleep(0.001)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('--duration', type=float, default=2.0)
    parser.add_argument('--until')
    parser.add_argument('--ready')
    args = parser.parse_known_args()[0]  # ROS arguments left to rclpy.init

    own_ctypes()
    print('threads at start:', threading.active_count())
    rclpy.init()
    talker, relay, listener = Talker(), Relay(), Listener()
    server, asker = Server(), Asker()
    numbers = Node('numbers')
    executor = MultiThreadedExecutor(num_threads=4)
    for node in (talker, relay, listener, server, asker):
        executor.add_node(node)
    threads = [threading.Thread(target=publish_numbers, args=(numbers, first))
               for first in (0, 1000)]
    for thread in threads:
        thread.start()

    began = time.monotonic()
    ready = False
    while True:
        executor.spin_once(timeout_sec=0.05)
        if not ready and listener.heard > 0:
            ready = True
            if args.ready:
                open(args.ready, 'w').close()
        done = (len(asker.answers) == CALLS
                and len(listener.numbers) == 2 * NUMBERS and listener.heard > 0)
        elapsed = time.monotonic() - began
        if elapsed > 60:
            break
        if done and (os.path.exists(args.until) if args.until else elapsed >= args.duration):
            break
    for thread in threads:
        thread.join()
    # the callbacks its threads run, waited for first: rclpy 7.1.3's
    # shutdown does not wait, and destroys the guard condition a run
    # triggers as it ends (an exception "never retrieved", or not, as the
    # timing goes)
    executor._executor.shutdown(wait=True)
    executor.shutdown()

    print('answers:', asker.answers)
    print('later answers wrong:', asker.wrong)
    numbers_heard = sorted(listener.numbers)
    print('numbers heard:', len(numbers_heard), 'all distinct and expected:',
          numbers_heard == sorted(list(range(NUMBERS)) + list(range(1000, 1000 + NUMBERS))))
    print('chatter relayed and heard:', relay.relayed > 0 and listener.heard > 0)
    for node in (talker, relay, listener, server, asker, numbers):
        node.destroy_node()

    ticker = Ticker()
    caught = []
    sent = 0
    while len(caught) < FAULTS or ticker.ticks < TICKS:
        try:
            rclpy.spin_once(ticker, timeout_sec=0.05)
        except ValueError as error:
            caught.append(''.join(traceback.format_exception(error)))
        if sent < FAULTS and ticker.pub.get_subscription_count() > 0:
            sent += 1
            ticker.pub.publish(Int32(data=sent))
    print('ticks: at least', TICKS, ticker.ticks >= TICKS)
    print('faults caught:', len(caught))
    for text in caught:
        print(text, end='')
    ticker.ending = True
    while True:  # the next tick raises: uncaught
        rclpy.spin_once(ticker, timeout_sec=0.05)


if __name__ == '__main__':
    main()

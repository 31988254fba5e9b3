# caret_rclpy.py - run by libcaret.so inside a Python process, once, when
# rclpy makes its first node (rclpy_attach.c). rclpy has no tracepoints:
# what rclcpp's would say is reported to the tracer through the functions
# it exports (caret_rclpy_*), called with the GIL held (ctypes.PyDLL):
#   - each subscription, service and timer made, with its callback's
#     Python name; executors, the callback groups they run and the
#     entities in each group;
#   - each callback run (around the callback alone, as rclcpp's: not
#     rclpy's work before and after it, a service's response made and
#     sent), and each client response run (its take included, as rclcpp's
#     execute_client).
# Nothing here changes what rclpy returns or raises; a failure to report
# is ignored. An exception passing through a wrapper leaves it without the
# wrapper's frame (_unseen): the program's tracebacks are as without the
# tracer.
import ctypes
import functools
import inspect
import threading
import weakref

import rclpy.callback_groups
import rclpy.client
import rclpy.executors
import rclpy.node
import rclpy.service
import rclpy.subscription
import rclpy.timer


def _check_layout():
    """Jazzy's executor: each _take_* returns what the handler then awaits
    (Humble's returns the message for an _execute_* method: wrapping it
    would hand the callback the wrapper)."""
    executor = rclpy.executors.Executor
    handler = inspect.signature(executor._make_handler)
    if hasattr(executor, '_execute_subscription') or \
            list(handler.parameters) != ['self', 'entity', 'node', 'take_from_wait_list']:
        raise RuntimeError("this rclpy's executor is not the one the tracer knows "
                           "(Jazzy's rclpy 7)")


_check_layout()
_tracer = ctypes.PyDLL(None)
_register = _tracer.caret_rclpy_register
_register.argtypes = (ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p,
                      ctypes.c_char_p)
_register.restype = None
_run = _tracer.caret_rclpy_run
_run.argtypes = (ctypes.c_int, ctypes.c_void_p)
_run.restype = None

# caret_rclpy_register's kinds and caret_rclpy_run's phases (rclpy_attach.h)
SUBSCRIPTION, TIMER, SERVICE, CLIENT, EXECUTOR, GROUP, IN_GROUP = range(7)
START, END, CLIENT_START, CLIENT_END = range(4)
_KINDS = ((rclpy.subscription.Subscription, SUBSCRIPTION), (rclpy.timer.Timer, TIMER),
          (rclpy.service.Service, SERVICE), (rclpy.client.Client, CLIENT))


def _symbol(callback):
    """The callback's Python name: module.qualname (a partial's function's,
    a callable object's class's)."""
    while isinstance(callback, functools.partial):
        callback = callback.func
    name = getattr(callback, '__qualname__', None) or type(callback).__qualname__
    module = getattr(callback, '__module__', None) or type(callback).__module__
    return f'{module}.{name}' if module else name


def _report(kind, handle, other, entity, name=''):
    try:
        _register(kind, handle, other, id(entity), name.encode('utf-8', 'replace'))
    except Exception:
        pass


def _report_entity(kind, entity, node=None):
    try:
        callback = entity.callback
        _report(kind, entity.handle.pointer, node.handle.pointer if node else None, entity,
                _symbol(callback) if callback is not None else '')
    except Exception:
        pass


def _unseen(error):
    """error, raised through the wrapper that caught it, as if it had not:
    the wrapper's frame (its traceback's first, added as the exception
    entered it) dropped; a bare raise then adds none."""
    trace = error.__traceback__
    if trace is not None:
        error.__traceback__ = trace.tb_next


def _wrap(owner, name, after):
    """owner.name calls after(self, result, *args) once it returned."""
    original = getattr(owner, name)

    @functools.wraps(original)
    def traced(self, *args, **kwargs):
        try:
            result = original(self, *args, **kwargs)
        except BaseException as error:
            _unseen(error)
            raise
        try:
            after(self, result, *args, **kwargs)
        except Exception:
            pass
        return result
    return owner, name, traced


def _group_type(group):
    if isinstance(group, rclpy.callback_groups.ReentrantCallbackGroup):
        return 'reentrant'
    if isinstance(group, rclpy.callback_groups.MutuallyExclusiveCallbackGroup):
        return 'mutually_exclusive'
    return 'unknown'


def _report_group_entity(group, entity):
    for cls, kind in _KINDS:
        if isinstance(entity, cls):
            try:
                _report(IN_GROUP, entity.handle.pointer, kind, group)
            except Exception:
                pass


_executors = weakref.WeakSet()  # reported (when they first took a node)
_groups = set()  # (executor, group) reported


def _report_group(executor, group):
    if executor not in _executors:
        _executors.add(executor)
        _report(EXECUTOR, None, None, executor, _executor_type(executor))
    if (id(executor), id(group)) not in _groups:
        _groups.add((id(executor), id(group)))
        _report(GROUP, id(executor), None, group, _group_type(group))


def _report_node_groups(executor, node):
    groups = {node.default_callback_group}
    for entities in (node.subscriptions, node.timers, node.services, node.clients):
        groups.update(entity.callback_group for entity in entities)
    for group in groups:
        _report_group(executor, group)


def _executor_type(executor):
    if isinstance(executor, rclpy.executors.MultiThreadedExecutor):
        return 'multi_threaded_executor'
    return 'single_threaded_executor'


# rclpy.node.Node made a subscription or a service (the type description
# service is made without create_service: its __init__ sees it too), a
# timer (its node known only here); an entity put in a group; a node given
# to an executor (a group made later is reported at its first run).
_wraps = [
    _wrap(rclpy.subscription.Subscription, '__init__',
          lambda self, result, *a, **k: _report_entity(SUBSCRIPTION, self)),
    _wrap(rclpy.service.Service, '__init__',
          lambda self, result, *a, **k: _report_entity(SERVICE, self)),
    _wrap(rclpy.node.Node, 'create_timer',
          lambda self, timer, *a, **k: _report_entity(TIMER, timer, self)),
    _wrap(rclpy.callback_groups.CallbackGroup, 'add_entity',
          lambda self, result, entity, *a, **k: _report_group_entity(self, entity)),
    _wrap(rclpy.executors.Executor, 'add_node',
          lambda self, added, node, *a, **k: _report_node_groups(self, node)),
]


def _wrap_take(name):
    take = getattr(rclpy.executors.Executor, name)

    @functools.wraps(take)
    def traced(self, entity):
        try:
            execute = take(self, entity)
        except BaseException as error:
            _unseen(error)
            raise
        if execute is None:
            return None
        key = id(entity)
        try:
            _report_group(self, entity.callback_group)
        except Exception:
            pass

        async def run():
            outer = getattr(_running, 'key', None)
            _running.key = key
            try:
                await execute()
            except BaseException as error:
                _unseen(error)
                raise
            finally:
                _running.key = outer
        return run
    return rclpy.executors.Executor, name, traced


# A run starts where the executor hands the entity's callback to
# await_or_execute and ends when the callback returned, as rclcpp's
# callback_start/end are around the callback alone: rclpy's own work
# before it (a service's response made) and after it (the response sent)
# is not the callback's. _running.key: the entity whose execute() this
# thread runs, until its callback is called.
_running = threading.local()


def _rest_of(coroutine, signal):
    """What is left of coroutine after its first step (which gave signal),
    delegated as `await` would: each value sent or exception thrown in
    passed on."""
    while True:
        try:
            sent = yield signal
        except GeneratorExit:
            coroutine.close()
            raise
        except BaseException as thrown:
            step = functools.partial(coroutine.throw, thrown)
        else:
            step = functools.partial(coroutine.send, sent)
        try:
            signal = step()
        except StopIteration as stop:
            return stop.value
        except BaseException as error:
            _unseen(error)
            raise


class _FirstStep:
    """A coroutine callback's run: its part up to where it first suspends
    (or ends). rclpy may resume it later in another thread, and a run is a
    start and an end in one thread (as rclcpp's): the rest is not in it."""
    __slots__ = ('coroutine', 'key')

    def __init__(self, coroutine, key):
        self.coroutine, self.key = coroutine, key

    def __await__(self):
        try:
            signal = self.coroutine.send(None)
        except StopIteration as stop:
            _run(END, self.key)
            return stop.value
        except BaseException as error:
            _run(END, self.key)
            _unseen(error)
            raise
        _run(END, self.key)
        try:
            return (yield from _rest_of(self.coroutine, signal))
        except BaseException as error:
            _unseen(error)
            raise


def _wrap_await_or_execute():
    original = rclpy.executors.await_or_execute

    @functools.wraps(original)
    async def traced(callback, *args):
        key = getattr(_running, 'key', None)
        coroutine = None
        if key is not None:
            _running.key = None  # the run's one callback
            _run(START, key)
        try:
            if key is None:
                return await original(callback, *args)
            if not inspect.iscoroutinefunction(callback):
                try:
                    return await original(callback, *args)
                finally:
                    _run(END, key)
            try:
                coroutine = callback(*args)
            finally:
                if coroutine is None:
                    _run(END, key)
            return await _FirstStep(coroutine, key)
        except BaseException as error:
            _unseen(error)
            raise
    return rclpy.executors, 'await_or_execute', traced


def _wrap_take_client():
    take = rclpy.executors.Executor._take_client

    @functools.wraps(take)
    def traced(self, client):
        key = id(client)
        _run(CLIENT_START, key)
        try:
            execute = take(self, client)
        except BaseException as error:
            _run(CLIENT_END, key)
            _unseen(error)
            raise
        if execute is None:
            _run(CLIENT_END, key)
            return None

        async def run():
            try:
                await execute()
            except BaseException as error:
                _unseen(error)
                raise
            finally:
                _run(CLIENT_END, key)
        return run
    return rclpy.executors.Executor, '_take_client', traced


# every wrapper made before any is installed: all or none
_wraps += [_wrap_take(name) for name in ('_take_subscription', '_take_timer', '_take_service')]
_wraps.append(_wrap_take_client())
_wraps.append(_wrap_await_or_execute())
for _owner, _name, _traced in _wraps:
    setattr(_owner, _name, _traced)

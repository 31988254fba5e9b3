"""What every value object shares: equality by its identifying fields,
and the original's small type objects (a name that prints as itself)."""


class ValueObject:
    """Equal to another of its class with the same _key()."""

    def _key(self):
        raise NotImplementedError

    def __eq__(self, other):
        return type(other) is type(self) and other._key() == self._key()

    def __hash__(self):
        return hash((type(self).__name__, self._key()))


class NamedType(ValueObject):
    """A kind by name: CallbackType.TIMER, ExecutorType, CallbackGroupType,
    MessageContextType; str() is its type_name."""

    def __init__(self, type_name):
        self._type_name = type_name

    type_name = property(lambda self: self._type_name)

    def _key(self):
        return self._type_name

    def __str__(self):
        return self._type_name

    def __repr__(self):
        return f'{type(self).__name__}({self._type_name!r})'


class CallbackType(NamedType):
    pass


CallbackType.TIMER = CallbackType('timer_callback')
CallbackType.SUBSCRIPTION = CallbackType('subscription_callback')
CallbackType.SERVICE = CallbackType('service_callback')


class CallbackGroupType(NamedType):
    pass


CallbackGroupType.MUTUALLY_EXCLUSIVE = CallbackGroupType('mutually_exclusive')
CallbackGroupType.REENTRANT = CallbackGroupType('reentrant')
CallbackGroupType.UNDEFINED = CallbackGroupType('UNDEFINED')


class ExecutorType(NamedType):
    pass


ExecutorType.SINGLE_THREADED_EXECUTOR = ExecutorType('single_threaded_executor')
ExecutorType.MULTI_THREADED_EXECUTOR = ExecutorType('multi_threaded_executor')
ExecutorType.STATIC_SINGLE_THREADED_EXECUTOR = ExecutorType('static_single_threaded_executor')

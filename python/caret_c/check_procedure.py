"""check_procedure: how the original finds a node's paths and assigns
their message contexts, with the contexts of another architecture file
(or trace), for a node of app_arch; what it finds is logged (INFO, to the
root logger's stream) and returned."""
import logging

from .architecture import read_state
from .architecture_model import node_paths
from .common import find_one
from .exceptions import InvalidYamlFormatError


def check_procedure(file_type, file_path, app_arch, node_name):
    state = read_state(file_type, file_path)
    node = find_one(lambda n: n.node_name == node_name, app_arch.nodes)
    try:
        contexts = find_one(lambda n: n['node_name'] == node_name,
                            state['nodes'])['message_contexts']
    except Exception:
        raise InvalidYamlFormatError('Failed to find node by node_name. target node name = '
                                     f'{node_name}') from None
    handler = logging.StreamHandler()
    handler.setLevel(logging.INFO)
    root = logging.getLogger()
    root.addHandler(handler)
    log = logging.getLogger(__name__)
    try:
        paths = node_paths(node, contexts, app_arch._max_order)
        for p in paths:
            context = p.message_context.type_name if p.message_context else None
            log.info(f'subscribe: {p.subscribe_topic_name}, publish: {p.publish_topic_name}, '
                     f'callbacks: {p.callback_names}, message_context: {context}')
    finally:
        root.removeHandler(handler)
    return tuple(paths)

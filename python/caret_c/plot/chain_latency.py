"""chain_latency(path): the path as a graphviz graph, each node and each
topic labelled with its latency's min, average and max (the original's
caret_analyze.plot.chain_latency)."""
import os

import numpy
import pandas

from . import _args
from .._exceptions_compat import InvalidArgumentError


def _latencies(obj, window, columns=None):
    """The object's latencies as the original's to_timeseries() gives them
    (an object array, <NA> for a message lost on the way), or those of
    two of a path's columns; the lost ones left out."""
    treat_drop_as_delay, lstrip_s, rstrip_s = window
    if columns is None:
        _, latency = obj.to_timeseries(remove_dropped=False,
                                       treat_drop_as_delay=treat_drop_as_delay,
                                       lstrip_s=lstrip_s, rstrip_s=rstrip_s)
    else:
        frame = obj.to_dataframe(remove_dropped=False, treat_drop_as_delay=treat_drop_as_delay,
                                 lstrip_s=lstrip_s, rstrip_s=rstrip_s)[columns]
        latency = numpy.array(frame.iloc[:, -1].values) - numpy.array(frame.iloc[:, 0].values)
    return latency[[not pandas.isnull(x) for x in latency]]


def label_of(latency):
    if not len(latency):
        return 'Latency cannot be calculated'
    ms = latency * 1.0e-6
    return ('min: {:.2f} ms\n'.format(float(numpy.min(ms))) +
            'avg: {:.2f} ms\n'.format(float(numpy.average(ms))) +
            'max: {:.2f} ms'.format(float(numpy.max(ms))))


def _node_labels(path, window):
    node_paths = path.node_paths
    out = []
    for i, node_path in enumerate(node_paths):
        label = node_path.node_name
        if i == 0 and path.include_first_callback:
            label += '\n' + label_of(_latencies(path, window, path.column_names[0:2]))
        elif i == len(node_paths) - 1 and path.include_last_callback:
            label += '\n' + label_of(_latencies(path, window, path.column_names[-2:]))
        elif node_path.column_names:
            label += '\n' + label_of(_latencies(node_path, window))
        out.append((node_path.node_name, label))
    return out


def _edge_labels(path, window):
    return [(c.publish_node_name, c.subscribe_node_name,
             c.topic_name + '\n' + label_of(_latencies(c, window)))
            for c in path.communications]


def _end_to_end(path, window):
    node_paths = path.node_paths
    nodes = []
    for node_path in (node_paths[0], node_paths[-1]):
        label = node_path.node_name
        if node_path.column_names:
            label += '\n' + label_of(_latencies(node_path, window))
        nodes.append((node_path.node_name, label))
    edges = [(node_paths[0].node_name, node_paths[-1].node_name,
              label_of(_latencies(path, window)))]
    return nodes, edges


def chain_latency(path, export_path=None, granularity='node', treat_drop_as_delay=False,
                  lstrip_s=0, rstrip_s=0):
    """A graphviz Digraph of the path; with export_path, the graph rendered
    there (its extension the format: .svg, .png, .pdf...) and None."""
    from graphviz import Digraph, Source
    _args.one(path, ('Path',), 'path')
    granularity = granularity or 'node'
    if granularity not in ('node', 'end-to-end'):
        raise InvalidArgumentError('granularity must be [ node / end-to-end ]')
    window = (treat_drop_as_delay, lstrip_s, rstrip_s)
    if granularity == 'node':
        nodes, edges = _node_labels(path, window), _edge_labels(path, window)
    else:
        nodes, edges = _end_to_end(path, window)
    graph = Digraph()
    graph.engine = 'dot'
    graph.attr('node', shape='box')
    for name, label in nodes:
        graph.node(name, label)
    for tail, head, label in edges:
        graph.edge(tail, head, label)
    if export_path is not None:
        stem, ext = os.path.splitext(os.fspath(export_path))
        Source(graph.source).render(stem, format=ext.lstrip('.'))
        return None
    return graph

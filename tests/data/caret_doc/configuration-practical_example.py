# caret_doc: docs/configuration/practical_example.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/configuration/practical_example/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# Output listings that the doc puts inside the Python blocks ("---Output text as below---" and after)
#   are kept below as comments; lines starting with "!" are IPython shell escapes (commented out).
# Placeholders: trace dir './e2e_sample'; './architecture.yaml'; nodes '/sensor_dummy_node',
#   '/actuator_dummy_node' (caret_demos end_to_end_sample).
# NOTE (as written in the doc): block 5 adds the path as 'target' but blocks 6/7 get 'target_path'
#   (the YAML excerpt on the page also shows path_name: target_path).

# --- block 1 ---
from caret_analyze import Architecture

# Read description of application's architecture from recorded data
#
arch = Architecture('lttng', './e2e_sample')

# Save description as an architecture file
arch.export('architecture.yaml')

# Check if the architecture file is created
# ! readlink -f ./architecture.yaml
# /home/user/ros2_caret_ws/eval/architecture.yaml

# --- block 2 ---
from caret_analyze import Architecture, check_procedure
arch = Architecture('yaml', './architecture.yaml')

# --- block 3 ---
paths = arch.search_paths(
'/sensor_dummy_node', # source node
'/actuator_dummy_node') # destination node

# --- block 4 ---
path = paths[0]
path.summary.pprint()

# ---Output text as below---
#
# path:
#   - message_context: null # for definition of node latency
#     node: /sensor_dummy_node
#   - topic: /topic1
#   - message_context:
#       publisher_topic_name: /topic2
#       subscription_topic_name: /topic1
#       type: callback_chain
#     node: /filter_node
#   - topic: /topic2
#   - message_context: null
#     node: /message_driven_node
#   - topic: /topic3
#   - message_context: null
#     node: /timer_driven_node
#   - topic: /topic4
#   - message_context: null
#     node: /actuator_dummy_node

# --- block 5 ---
arch.add_path('target', path)
arch.export('./architecture.yaml', force=True)

# --- block 6 ---
from caret_analyze import Architecture

arch = Architecture('yaml', './architecture.yaml')
path = arch.get_path('target_path')
path.verify()

# ---Output text as below---
# WARNING : 2021-12-20 19:14:03 | Detected "message_contest is None". Correct these node_path definitions.
# To see node definition and procedure,execute :
# >> check_procedure('yaml', '/path/to/yaml', arch, '/message_driven_node')
# message_context: null
# node: /message_driven_node
# publish_topic_name: /topic3
# subscribe_topic_name: /topic2
#
# WARNING : 2021-12-20 19:14:03 | Detected "message_contest is None". Correct these node_path definitions.
# To see node definition and procedure,execute :
# >> check_procedure('yaml', '/path/to/yaml', arch, '/timer_driven_node')
# message_context: null
# node: /timer_driven_node
# publish_topic_name: /topic4
# subscribe_topic_name: /topic3

# --- block 7 ---
from caret_analyze import Architecture

arch = Architecture('yaml', './architecture.yaml')
path = arch.get_path('target_path')
path.verify()

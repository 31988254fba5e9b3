# caret_doc: docs/configuration/intra_node_data_path.md
# (as published for CARET v0.7.2: gh-pages branch-update-changelog-for-v0.7.2/configuration/intra_node_data_path/index.html)
# Python blocks in page order; "# --- block N ---" separators added by the collector.
# (YAML fragments of the page and the warning-log listing are not Python and are omitted; the README beside these files says how they were collected.)
# Placeholders: '/path/to/architecture.yaml', path 'target_path', node '/pong_node', topics '/ping', '/pong',
#   callbacks 'subscription_callback_0', 'timer_callback_1'. Blocks 2-5 assume `arch` is loaded.
# Documented path.verify() warning text (logged, verify() returns False):
#   WARNING : ... | Detected "message_contest is None". Correct these node_path definitions.
#   To see node definition and procedure,execute :
#   >> check_procedure('yaml', '/path/to/yaml', arch, '/message_driven_node')
#   message_context: null / node: ... / publish_topic_name: ... / subscribe_topic_name: ...
#   WARNING : ... | 'caret/rclcpp' may not be used in subscriber of '/topic/name'.

# --- block 1 ---
arch = Architecture('yaml', '/path/to/architecture.yaml')

path = arch.get_path('target_path')
path.verify()

# --- block 2 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.insert_publisher_callback('/pong_node', '/pong', 'timer_callback_1')
arch.update_message_context('/pong_node', '/ping', '/pong', 'use_latest_message')

# --- block 3 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.remove_publisher_callback('/pong_node', '/pong', 'timer_callback_1')
arch.update_message_context('/pong_node', '/ping', '/pong', 'UNDEFINED')

# --- block 4 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.insert_publisher_callback('/pong_node', '/pong', 'timer_callback_1')
arch.insert_variable_passing('/pong_node', 'subscription_callback_0', 'timer_callback_1')
arch.update_message_context('/pong_node', '/ping', '/pong', 'callback_chain')

# --- block 5 ---
# arch is caret_analyze.architecture.architecture.Architecture-based object

arch.remove_publisher_callback('/pong_node', '/pong', 'timer_callback_1')
arch.remove_variable_passing('/pong_node', 'subscription_callback_0', 'timer_callback_1')
arch.update_message_context('/pong_node', '/ping', '/pong', 'UNDEFINED')

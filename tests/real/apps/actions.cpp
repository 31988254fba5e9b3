// real_actions - an action and its client on real rclcpp_action:
// /action_server serves /lookup (tf2_msgs/action/LookupTransform, a real
// action type of the tree): it accepts each goal, works 300 us and
// succeeds; /action_client sends a goal from a timer whenever the server is
// there and no goal is pending, and asks for its result. --nodes picks them
// (both by default), one SingleThreadedExecutor per process.
//
// rclcpp_action carries a goal over the action's services and topics: the
// client's send_goal request, the server's goal response, the client's
// get_result request and the result response (the status and feedback
// topics besides).
// Its truth, DIR/<process>.goals.<pid>.csv: the client's goals (their id,
// its clock just before async_send_goal and at the start of its result
// callback) and the server's (the id, when handle_goal began and when the
// goal succeeded), CLOCK_MONOTONIC ns.
#include <rclcpp_action/rclcpp_action.hpp>
#include <tf2_msgs/action/lookup_transform.hpp>

#include <map>
#include <mutex>
#include <string>
#include <vector>

#include "real_app.hpp"

namespace
{

using Lookup = tf2_msgs::action::LookupTransform;

std::string hex(const rclcpp_action::GoalUUID & id)
{
  std::string s;
  char b[3];
  for (auto byte : id) {
    std::snprintf(b, sizeof b, "%02x", byte);
    s += b;
  }
  return s;
}

// The goals of this process, written at its end.
class Goals
{
public:
  explicit Goals(const real::Options & o)
  : path_(o.truth_dir.empty() ? "" : o.truth_dir + "/" + o.process + ".goals." +
      std::to_string(getpid()) + ".csv") {}
  ~Goals()
  {
    FILE * f = path_.empty() ? nullptr : std::fopen(path_.c_str(), "w");
    if (!f) {
      return;
    }
    std::fprintf(f, "role,goal_id,start_ns,end_ns\n");
    for (const auto & g : rows_) {
      std::fprintf(
        f, "%s,%s,%lld,%lld\n", g.role, g.id.c_str(), static_cast<long long>(g.start),
        static_cast<long long>(g.end));
    }
    std::fclose(f);
  }
  Goals(const Goals &) = delete;
  Goals & operator=(const Goals &) = delete;
  void add(const char * role, const std::string & id, int64_t start, int64_t end)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.push_back({role, id, start, end});
  }

private:
  struct Row
  {
    const char * role;
    std::string id;
    int64_t start, end;
  };
  std::string path_;
  std::mutex mutex_;
  std::vector<Row> rows_;
};

class Server : public rclcpp::Node
{
public:
  explicit Server(Goals & goals)
  : Node("action_server")
  {
    server_ = rclcpp_action::create_server<Lookup>(
      this, "/lookup",
      [this](const rclcpp_action::GoalUUID & id, std::shared_ptr<const Lookup::Goal>) {
        started_[hex(id)] = real::now_ns();
        return rclcpp_action::GoalResponse::ACCEPT_AND_EXECUTE;
      },
      [](std::shared_ptr<rclcpp_action::ServerGoalHandle<Lookup>>) {
        return rclcpp_action::CancelResponse::ACCEPT;
      },
      [this, &goals](std::shared_ptr<rclcpp_action::ServerGoalHandle<Lookup>> handle) {
        // the goal's work, done at once in the executor's thread
        real::work_us(300);
        auto result = std::make_shared<Lookup::Result>();
        result->transform.child_frame_id = handle->get_goal()->source_frame;
        handle->succeed(result);
        const std::string id = hex(handle->get_goal_id());
        goals.add("server", id, started_[id], real::now_ns());
        started_.erase(id);
      });
  }

private:
  rclcpp_action::Server<Lookup>::SharedPtr server_;
  std::map<std::string, int64_t> started_;
};

class Client : public rclcpp::Node
{
public:
  Client(Goals & goals, int period_ms)
  : Node("action_client")
  {
    client_ = rclcpp_action::create_client<Lookup>(this, "/lookup");
    timer_ = create_wall_timer(
      std::chrono::milliseconds(period_ms), [this, &goals]() {
        if (pending_ || !client_->action_server_is_ready()) {
          return;
        }
        pending_ = true;
        Lookup::Goal goal;
        goal.target_frame = "map";
        goal.source_frame = "base_link";
        rclcpp_action::Client<Lookup>::SendGoalOptions options;
        options.goal_response_callback =
        [this](rclcpp_action::ClientGoalHandle<Lookup>::SharedPtr handle) {
          if (!handle) {  // rejected: the server accepts every goal
            std::fprintf(stderr, "real_actions: a goal was rejected\n");
            pending_ = false;
          }
        };
        options.result_callback =
        [this, &goals](const rclcpp_action::ClientGoalHandle<Lookup>::WrappedResult & r) {
          goals.add("client", hex(r.goal_id), sent_, real::now_ns());
          pending_ = false;
        };
        sent_ = real::now_ns();
        client_->async_send_goal(goal, options);
      });
  }

private:
  rclcpp_action::Client<Lookup>::SharedPtr client_;
  rclcpp::TimerBase::SharedPtr timer_;
  bool pending_ = false;
  int64_t sent_ = 0;
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  if (o.nodes.empty()) {
    o.nodes = {"action_server", "action_client"};
  }
  rclcpp::init(argc, argv);
  {
    Goals goals(o);
    std::vector<rclcpp::Node::SharedPtr> nodes;
    rclcpp::executors::SingleThreadedExecutor exec;
    for (const auto & n : o.nodes) {
      if (n == "action_server") {
        nodes.push_back(std::make_shared<Server>(goals));
      } else if (n == "action_client") {
        nodes.push_back(std::make_shared<Client>(goals, o.period_ms));
      } else {
        real::usage(argv[0], ("no node " + n).c_str());
      }
      exec.add_node(nodes.back());
    }
    real::spin_for(exec, o.duration_s);
  }
  rclcpp::shutdown();
  std::printf("real_actions: done\n");
  return 0;
}

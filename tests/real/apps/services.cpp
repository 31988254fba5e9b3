// real_services - a service and its client: /server provides /list_nodes
// (composition_interfaces/srv/ListNodes); /client calls it from a timer
// whenever the service is there and no call is pending. With /listener in
// the process, the client's response callback publishes on /answers, which
// /listener takes: a chain through the service and on (outside any
// callback run rclcpp traces, so not in the systems compared with the
// original analyzer). --nodes picks them (server and client by default),
// one SingleThreadedExecutor.
// Besides the truth of every app, each call in DIR/<process>.calls.<pid>.csv:
// the client's (its sequence number, just before async_send_request, and
// the start of its response callback) and the server's (the sequence
// number, the service callback's start and end).
#include <composition_interfaces/srv/list_nodes.hpp>

#include <mutex>
#include <string>
#include <vector>

#include "real_app.hpp"

namespace
{

using ListNodes = composition_interfaces::srv::ListNodes;

// The calls of this process, written at its end.
class Calls
{
public:
  explicit Calls(const real::Options & o)
  : path_(o.truth_dir.empty() ? "" : o.truth_dir + "/" + o.process + ".calls." +
      std::to_string(getpid()) + ".csv") {}
  ~Calls()
  {
    FILE * f = path_.empty() ? nullptr : std::fopen(path_.c_str(), "w");
    if (!f) {
      return;
    }
    std::fprintf(f, "role,sequence_number,start_ns,end_ns\n");
    for (const auto & c : rows_) {
      std::fprintf(
        f, "%s,%lld,%lld,%lld\n", c.role, static_cast<long long>(c.seq),
        static_cast<long long>(c.start), static_cast<long long>(c.end));
    }
    std::fclose(f);
  }
  void add(const char * role, int64_t seq, int64_t start, int64_t end)
  {
    std::lock_guard<std::mutex> lock(mutex_);
    rows_.push_back({role, seq, start, end});
  }

private:
  struct Row
  {
    const char * role;
    int64_t seq, start, end;
  };
  std::string path_;
  std::mutex mutex_;
  std::vector<Row> rows_;
};

class Server : public rclcpp::Node
{
public:
  Server(real::Truth & t, Calls & calls)
  : Node("server")
  {
    t.node(*this);
    auto fn = [this, &t, &calls](const std::shared_ptr<rmw_request_id_t> header,
        const std::shared_ptr<ListNodes::Request>,
        std::shared_ptr<ListNodes::Response> response) {
        real::Run run(t, get_fully_qualified_name(), "service_callback_0", handle_, "service");
        real::work_us(300);
        response->full_node_names.push_back(get_fully_qualified_name());
        calls.add("server", header->sequence_number, run.start, run.finish());
      };
    service_ = create_service<ListNodes>("/list_nodes", fn);
    handle_ = service_->get_service_handle().get();
    t.service(*this, *service_, fn, nullptr);
  }

private:
  rclcpp::Service<ListNodes>::SharedPtr service_;
  const void * handle_ = nullptr;
};

class Client : public rclcpp::Node
{
public:
  Client(real::Truth & t, Calls & calls, int period_ms, bool answers)
  : Node("client")
  {
    t.node(*this);
    if (answers) {
      answers_ = std::make_unique<real::Publisher>(t, *this, "/answers");
    }
    client_ = create_client<ListNodes>("/list_nodes");
    t.client(*this, *client_, nullptr);
    timer_ = real::timer(
      t, *this, period_ms, "timer_callback_0", [this, &calls](const real::Run &) {
        if (!pending_ && client_->service_is_ready()) {
          pending_ = true;
          sent_ = real::now_ns();
          seq_ = client_->async_send_request(
            std::make_shared<ListNodes::Request>(),
            [this, &calls](rclcpp::Client<ListNodes>::SharedFuture) {
              calls.add("client", seq_, sent_, real::now_ns());
              if (answers_) {
                answers_->publish(sent_);
              }
              pending_ = false;
            }).request_id;
        }
      });
  }

private:
  std::unique_ptr<real::Publisher> answers_;
  rclcpp::Client<ListNodes>::SharedPtr client_;
  rclcpp::TimerBase::SharedPtr timer_;
  bool pending_ = false;
  int64_t sent_ = 0, seq_ = 0;
};

// Takes the client's answers: the end of the chain through the service.
class Listener : public rclcpp::Node
{
public:
  explicit Listener(real::Truth & t)
  : Node("listener")
  {
    t.node(*this);
    sub_ = real::subscription(t, *this, "/answers", "subscription_callback_0",
        [this, &t](const real::Header & msg, real::Run & run) {
          const real::Received r = real::received(msg);
          tb_truth_e2e(t.raw(), get_fully_qualified_name(), "subscription_callback_0",
          "/answers", r.publisher, r.seq, r.origin, run.finish());
        });
  }

private:
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  if (o.nodes.empty()) {
    o.nodes = {"server", "client"};
  }
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    Calls calls(o);
    // Nodes outlive the executor: the handles it holds from its last wait
    // must go before their node (else rclcpp complains on stderr).
    std::vector<rclcpp::Node::SharedPtr> nodes;
    rclcpp::executors::SingleThreadedExecutor exec;
    truth.executor(exec, "single_threaded_executor");
    for (const auto & n : o.nodes) {
      if (n == "server") {
        nodes.push_back(std::make_shared<Server>(truth, calls));
      } else if (n == "client") {
        nodes.push_back(
          std::make_shared<Client>(truth, calls, o.period_ms, real::has_node(o, "listener")));
      } else if (n == "listener") {
        nodes.push_back(std::make_shared<Listener>(truth));
      } else {
        real::usage(argv[0], ("no node " + n).c_str());
      }
      exec.add_node(nodes.back());
      truth.executor_node(exec, *nodes.back());
    }
    real::spin_for(exec, o.duration_s);
  }
  rclcpp::shutdown();
  std::printf("real_services: done\n");
  return 0;
}

// real_services - a service and its client: /server provides /list_nodes
// (composition_interfaces/srv/ListNodes); /client calls it from a timer
// whenever the service is there and no call is pending. --nodes picks them
// (both by default), one SingleThreadedExecutor.
#include <composition_interfaces/srv/list_nodes.hpp>

#include "real_app.hpp"

namespace
{

using ListNodes = composition_interfaces::srv::ListNodes;

class Server : public rclcpp::Node
{
public:
  explicit Server(real::Truth & t)
  : Node("server")
  {
    t.node(*this);
    auto fn = [this, &t](const std::shared_ptr<ListNodes::Request>,
        std::shared_ptr<ListNodes::Response> response) {
        real::Run run(t, get_fully_qualified_name(), "service_callback_0", handle_, "service");
        real::work_us(300);
        response->full_node_names.push_back(get_fully_qualified_name());
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
  Client(real::Truth & t, int period_ms)
  : Node("client")
  {
    t.node(*this);
    client_ = create_client<ListNodes>("/list_nodes");
    t.client(*this, *client_, nullptr);
    timer_ = real::timer(t, *this, period_ms, "timer_callback_0", [this](const real::Run &) {
          if (!pending_ && client_->service_is_ready()) {
            pending_ = true;
            client_->async_send_request(
              std::make_shared<ListNodes::Request>(),
              [this](rclcpp::Client<ListNodes>::SharedFuture) {pending_ = false;});
          }
        });
  }

private:
  rclcpp::Client<ListNodes>::SharedPtr client_;
  rclcpp::TimerBase::SharedPtr timer_;
  bool pending_ = false;
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
    // Nodes outlive the executor: the handles it holds from its last wait
    // must go before their node (else rclcpp complains on stderr).
    std::vector<rclcpp::Node::SharedPtr> nodes;
    rclcpp::executors::SingleThreadedExecutor exec;
    truth.executor(exec, "single_threaded_executor");
    for (const auto & n : o.nodes) {
      if (n == "server") {
        nodes.push_back(std::make_shared<Server>(truth));
      } else if (n == "client") {
        nodes.push_back(std::make_shared<Client>(truth, o.period_ms));
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

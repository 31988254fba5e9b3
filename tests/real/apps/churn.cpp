// real_churn - nodes that come and go: /early lives 0.3 s alone and is
// destroyed (rmw then deletes the DDS domain with its last node); then
// /steady publishes /beat from a timer for the whole run, while /ephemeral,
// subscribed to it, is created at 30 % of the run and destroyed at 60 %.
#include <algorithm>
#include "real_app.hpp"

namespace
{

class Ticker : public rclcpp::Node
{
public:
  Ticker(real::Truth & t, const char * name, int period_ms, bool publish)
  : Node(name)
  {
    t.node(*this);
    if (publish) {
      pub_ = std::make_unique<real::Publisher>(t, *this, "/beat");
    }
    timer_ = real::timer(t, *this, period_ms, "timer_callback_0", [this](const real::Run & run) {
          real::work_us(100);
          if (pub_) {
            pub_->publish(run.start);
          }
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::TimerBase::SharedPtr timer_;
};

class Ephemeral : public rclcpp::Node
{
public:
  explicit Ephemeral(real::Truth & t)
  : Node("ephemeral")
  {
    t.node(*this);
    sub_ = real::subscription(t, *this, "/beat", "subscription_callback_0",
        [](const real::Header &, real::Run &) {real::work_us(200);});
  }

private:
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
};

void sleep_s(double s)
{
  std::this_thread::sleep_for(std::chrono::milliseconds(static_cast<int64_t>(s * 1000)));
}

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    // Executors live to the end: a later one never takes a freed address.
    auto first = std::make_unique<rclcpp::executors::SingleThreadedExecutor>();
    auto main_exec = std::make_unique<rclcpp::executors::SingleThreadedExecutor>();
    truth.executor(*first, "single_threaded_executor");
    truth.executor(*main_exec, "single_threaded_executor");
    {
      auto early = std::make_shared<Ticker>(truth, "early", 50, false);
      first->add_node(early);
      truth.executor_node(*first, *early);
      real::spin_for(*first, 0.3);
      first->remove_node(early);
    }

    auto steady = std::make_shared<Ticker>(truth, "steady", o.period_ms, true);
    main_exec->add_node(steady);
    truth.executor_node(*main_exec, *steady);
    std::thread spinner([&]() {real::spin_for(*main_exec, o.duration_s);});
    // the ephemeral node's life: a third of a short run each side; on a
    // run the test stops (a long duration), as on an 8 s one
    const double phase_s = std::min(0.3 * o.duration_s, 2.4);
    sleep_s(phase_s);
    if (rclcpp::ok()) {
      auto ephemeral = std::make_shared<Ephemeral>(truth);
      main_exec->add_node(ephemeral);
      truth.executor_node(*main_exec, *ephemeral);
      sleep_s(phase_s);
      main_exec->remove_node(ephemeral);
    }
    spinner.join();
  }
  rclcpp::shutdown();
  std::printf("real_churn: done\n");
  return 0;
}

// real_tutorial - the system CARET's tutorials measure (its "end to end
// sample"), by its node and topic names, on real rclcpp, in one process
// on a MultiThreadedExecutor: /sensor_dummy_node and /drive_node publish
// /topic1 and /drive from timers; /filter_node republishes /topic1 on
// /topic2; /message_driven_node keeps its /topic2 input and publishes it on
// /topic3 when /drive comes (once); /timer_driven_node keeps its /topic3
// input and publishes it on /topic4 from a timer of its own (every time);
// /actuator_dummy_node ends the chain. Each callback works a few
// milliseconds. The apps' truth names the /sensor_dummy_node run each
// /topic4 message began at.
#include "real_app.hpp"

namespace
{

constexpr int kWorkUs = 2000;

// A timer publishing `topic` (a chain's first node).
class Source : public rclcpp::Node
{
public:
  Source(real::Truth & t, const char * name, const std::string & topic, int period_ms)
  : Node(name)
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, topic);
    timer_ = real::timer(t, *this, period_ms, "timer_callback_0", [this](const real::Run & run) {
          real::work_us(kWorkUs);
          pub_->publish(run.start);
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::TimerBase::SharedPtr timer_;
};

// Receives on `in`; republishes on `out`, or ends the chain (out empty).
class Forward : public rclcpp::Node
{
public:
  Forward(real::Truth & t, const char * name, const std::string & in, const std::string & out)
  : Node(name)
  {
    t.node(*this);
    if (!out.empty()) {
      pub_ = std::make_unique<real::Publisher>(t, *this, out);
    }
    sub_ = real::subscription(t, *this, in, "subscription_callback_0",
        [this, &t, in](const real::Header & msg, real::Run & run) {
          real::work_us(kWorkUs);
          const real::Received r = real::received(msg);
          if (pub_) {
            pub_->publish(r.origin);
          } else {
            tb_truth_e2e(t.raw(), get_fully_qualified_name(), "subscription_callback_0",
              in.c_str(), r.publisher, r.seq, r.origin, run.finish());
          }
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
};

// Keeps its `in` input; publishes it on `out` when `trigger` comes, once.
class MessageDriven : public rclcpp::Node
{
public:
  MessageDriven(real::Truth & t, const std::string & in, const std::string & trigger,
    const std::string & out)
  : Node("message_driven_node")
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, out);
    keep_ = real::subscription(t, *this, in, "subscription_callback_0",
        [this](const real::Header & msg, real::Run &) {
          real::work_us(kWorkUs);
          kept_ = real::received(msg).origin;
        });
    drive_ = real::subscription(t, *this, trigger, "subscription_callback_1",
        [this](const real::Header &, real::Run &) {
          real::work_us(kWorkUs);
          if (kept_) {
            pub_->publish(kept_);
            kept_ = 0;
          }
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::Subscription<real::Header>::SharedPtr keep_, drive_;
  int64_t kept_ = 0;
};

// Keeps its `in` input; publishes the latest on `out` from its timer.
class TimerDriven : public rclcpp::Node
{
public:
  TimerDriven(real::Truth & t, const std::string & in, const std::string & out, int period_ms)
  : Node("timer_driven_node")
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, out);
    sub_ = real::subscription(t, *this, in, "subscription_callback_0",
        [this](const real::Header & msg, real::Run &) {
          real::work_us(kWorkUs);
          kept_ = real::received(msg).origin;
        });
    timer_ = real::timer(t, *this, period_ms, "timer_callback_0", [this](const real::Run &) {
          real::work_us(kWorkUs);
          if (kept_) {
            pub_->publish(kept_);
          }
        });
  }

private:
  std::unique_ptr<real::Publisher> pub_;
  rclcpp::Subscription<real::Header>::SharedPtr sub_;
  rclcpp::TimerBase::SharedPtr timer_;
  int64_t kept_ = 0;
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    std::vector<rclcpp::Node::SharedPtr> nodes;
    rclcpp::executors::MultiThreadedExecutor exec(rclcpp::ExecutorOptions(), 2);
    truth.executor(exec, "multi_threaded_executor");
    nodes.push_back(std::make_shared<Forward>(truth, "actuator_dummy_node", "/topic4", ""));
    nodes.push_back(std::make_shared<Forward>(truth, "filter_node", "/topic1", "/topic2"));
    nodes.push_back(std::make_shared<MessageDriven>(truth, "/topic2", "/drive", "/topic3"));
    nodes.push_back(std::make_shared<TimerDriven>(truth, "/topic3", "/topic4", o.period_ms));
    nodes.push_back(std::make_shared<Source>(truth, "sensor_dummy_node", "/topic1", o.period_ms));
    nodes.push_back(std::make_shared<Source>(truth, "drive_node", "/drive", o.period_ms));
    for (auto & n : nodes) {
      exec.add_node(n);
      truth.executor_node(exec, *n);
    }
    real::spin_for(exec, o.duration_s);
  }
  rclcpp::shutdown();
  std::printf("real_tutorial: done\n");
  return 0;
}

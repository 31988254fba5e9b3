// real_executors - the executor kinds and callback layouts of rclcpp in one
// process: /timers has two timers of the same period publishing /ticks, on
// a StaticSingleThreadedExecutor in its own thread; /listener has two
// subscriptions to /ticks in a reentrant group, on a MultiThreadedExecutor
// with two threads (the two may run at once).
#include "real_app.hpp"

namespace
{

class Timers : public rclcpp::Node
{
public:
  Timers(real::Truth & t, int period_ms)
  : Node("timers")
  {
    t.node(*this);
    pub_ = std::make_unique<real::Publisher>(t, *this, "/ticks");
    add_timer(t, period_ms, 0, "timer_callback_0");
    add_timer(t, period_ms, 1, "timer_callback_1");
  }

private:
  void add_timer(real::Truth & t, int period_ms, int i, const char * name)
  {
    auto fn = [this, &t, i, name]() {
        real::Run run(t, get_fully_qualified_name(), name, handles_[i], "timer");
        real::work_us(150);
        pub_->publish(run.start);
      };
    timers_[i] = create_wall_timer(std::chrono::milliseconds(period_ms), fn);
    handles_[i] = timers_[i]->get_timer_handle().get();
    t.timer(*this, *timers_[i], fn, nullptr, period_ms * 1000000LL);
  }

  std::unique_ptr<real::Publisher> pub_;
  rclcpp::TimerBase::SharedPtr timers_[2];
  const void * handles_[2] = {nullptr, nullptr};
};

class Listener : public rclcpp::Node
{
public:
  explicit Listener(real::Truth & t)
  : Node("listener")
  {
    t.node(*this);
    group_ = create_callback_group(rclcpp::CallbackGroupType::Reentrant);
    t.callback_group(*this, group_);
    add_subscription(t, 0, "subscription_callback_0");
    add_subscription(t, 1, "subscription_callback_1");
  }

private:
  void add_subscription(real::Truth & t, int i, const char * name)
  {
    auto fn = [this, &t, i, name](real::Header::ConstSharedPtr msg,
        const rclcpp::MessageInfo & info) {
        real::Run run(t, get_fully_qualified_name(), name, handles_[i], "subscription");
        real::log_receive(t, get_fully_qualified_name(), name, "/ticks", *msg, info, run.start);
        real::work_us(3000); // long enough for the other one to run meanwhile
      };
    rclcpp::SubscriptionOptions options;
    options.callback_group = group_;
    subs_[i] = create_subscription<real::Header>("/ticks", 10, fn, options);
    handles_[i] = subs_[i]->get_subscription_handle().get();
    t.subscription(*this, *subs_[i], fn, group_);
  }

  rclcpp::CallbackGroup::SharedPtr group_;
  rclcpp::Subscription<real::Header>::SharedPtr subs_[2];
  const void * handles_[2] = {nullptr, nullptr};
};

}  // namespace

int main(int argc, char ** argv)
{
  real::Options o = real::parse(argc, argv);
  rclcpp::init(argc, argv);
  {
    real::Truth truth(o);
    auto listener = std::make_shared<Listener>(truth);
    auto timers = std::make_shared<Timers>(truth, o.period_ms);

    rclcpp::executors::MultiThreadedExecutor multi(rclcpp::ExecutorOptions(), 2);
    truth.executor(multi, "multi_threaded_executor");
    multi.add_node(listener);
    truth.executor_node(multi, *listener);

    rclcpp::executors::StaticSingleThreadedExecutor single;
    truth.executor(single, "static_single_threaded_executor");
    single.add_node(timers);
    truth.executor_node(single, *timers);

    std::thread static_thread([&]() {real::spin_for(single, o.duration_s);});
    real::spin_for(multi, o.duration_s);
    static_thread.join();
  }
  rclcpp::shutdown();
  std::printf("real_executors: done\n");
  return 0;
}

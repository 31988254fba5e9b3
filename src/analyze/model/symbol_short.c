/*
 * symbol_short.c - a callback's symbol as a person reads it (ca.h,
 * ca_symbol_short). rclcpp_callback_register names the callable's type,
 * demangled: a lambda in a constructor is "Filter::Filter(real::Truth&,
 * rclcpp::NodeOptions const&)::{lambda(std::shared_ptr<std_msgs::msg::
 * String_<std::allocator<void> > const>)#1}", a std::bind of a member
 * "std::_Bind<void (Filter::*(Filter*, std::_Placeholder<1>))(std::
 * shared_ptr<...>)>". What tells callbacks apart is the class, the
 * function and the lambda's number: the parameters and the templates'
 * arguments are cut to "…", "(anonymous namespace)::" dropped, and a bind
 * shown as the member's class.
 */
#include <string.h>

#include "ca.h"

/* Appends n bytes of s to buf (size), as room allows; the new length. */
static size_t put(char *buf, size_t size, size_t len, const char *s, size_t n)
{
	for (size_t i = 0; i < n && len + 1 < size; i++)
		buf[len++] = s[i];
	buf[len] = 0;
	return len;
}

/* "std::bind(&Filter::…)" of "std::_Bind<R (Filter::*(...". */
static bool bind_of(const char *symbol, char *buf, size_t size)
{
	static const char prefix[] = "std::_Bind<";
	if (strncmp(symbol, prefix, sizeof prefix - 1))
		return false;
	const char *member = strstr(symbol, "::*");
	if (!member)
		return false;
	const char *from = member;
	while (from > symbol && from[-1] != '(' && from[-1] != ' ')
		from--;
	size_t len = put(buf, size, 0, "std::bind(&", 11);
	len = put(buf, size, len, from, (size_t)(member - from));
	put(buf, size, len, "::…)", strlen("::…)"));
	return true;
}

const char *ca_symbol_short(const char *symbol, char *buf, size_t size)
{
	static const char anonymous[] = "(anonymous namespace)::";
	if (!size)
		return "";
	buf[0] = 0;
	if (!symbol)
		return buf;
	if (bind_of(symbol, buf, size))
		return buf;
	size_t len = 0;
	int depth = 0; /* inside () or <> */
	for (const char *p = symbol; *p; p++) {
		if (!strncmp(p, anonymous, sizeof anonymous - 1)) {
			p += sizeof anonymous - 2;
			continue;
		}
		bool open = *p == '(' || *p == '<', close = *p == ')' || *p == '>';
		if (close && depth > 0 && --depth == 0) {
			len = p[-1] == '(' || p[-1] == '<' ? len : put(buf, size, len, "…", strlen("…"));
			len = put(buf, size, len, p, 1);
			continue;
		}
		if (!depth)
			len = put(buf, size, len, p, 1);
		depth += open;
	}
	return buf;
}

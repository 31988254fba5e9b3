/* original_probe - a library the test loads with local binding, as Python
 * loads rclpy's extension and librcl under it (test_original_lookup). */
int ct_probe_local_answer(void);
__attribute__((visibility("default"))) int ct_probe_local_answer(void)
{
	return 47;
}

// thread_graph directly in a func
func.func @f(%t: !mirage_block.stensor<16x16xf16>) {
  %u = mirage_block.thread_graph %t : !mirage_block.stensor<16x16xf16> -> !mirage_block.stensor<16x16xf16> {
  ^bb0(%p: f16):
    mirage_thread.yield %p : f16
  }
  return
}
// mirage_thread.exp directly in a func
func.func @f(%x: f32) -> f32 {
  %0 = mirage_thread.exp %x : f32
  return %0 : f32
}
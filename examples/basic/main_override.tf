resource "random_pet" "name" {
  length    = 3
  separator = "_"
}

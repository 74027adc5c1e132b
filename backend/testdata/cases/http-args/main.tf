terraform {
  backend "http" {
    retry_max = 1
  }
}

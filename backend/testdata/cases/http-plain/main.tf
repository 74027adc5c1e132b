terraform {
  backend "http" {
    username  = "u"
    retry_max = 1
  }
}

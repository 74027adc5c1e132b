terraform {
  backend "http" {
    username = "u"
    headers = {
      X-One = "1"
    }
  }
}

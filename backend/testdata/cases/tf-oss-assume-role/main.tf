terraform {
  backend "oss" {
    region                   = "cn-beijing"
    bucket                   = "tfstate"
    access_key               = "fake-id"
    secret_key               = "fake-key"
    endpoint                 = "http://127.0.0.1:1"
    tablestore_instance_name = "inst"
  }
}

terraform {
  backend "azurerm" {
    storage_account_name = "acct"
    container_name       = "tfstate"
    key                  = "app.tfstate"
    access_key           = "ZmFrZQ=="
    endpoint             = "http://127.0.0.1:1"
  }
}

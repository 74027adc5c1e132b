# A local module: installed by reference (no copy), "- naming in modules/naming".

variable "prefix" {
  type    = string
  default = "demo"
}

output "name" {
  value = "${var.prefix}-app"
}

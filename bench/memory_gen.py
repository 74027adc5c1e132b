import os, sys, json
# Writes one configuration file of about SIZE bytes of a kind of input into
# OUTDIR, for bench/memory.sh; prints its size.
#   bench/memory_gen.py KIND SIZE OUTDIR
kind, size, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
os.makedirs(out, exist_ok=True)
def rep(unit_fn, head="", tail=""):
    parts=[head]; n=len(head)+len(tail); i=0
    while True:
        u=unit_fn(i)
        if n+len(u)>size: break
        parts.append(u); n+=len(u); i+=1
    parts.append(tail)
    return "".join(parts)
D=900
if kind=="bracket":
    s=rep(lambda i:"locals {\n  a%d = %s%s\n}\n"%(i,"["*D,"]"*D)); f="main.tf"
elif kind=="brace":
    s=rep(lambda i:"locals {\n  a%d = %s1%s\n}\n"%(i,"{a="*D,"}"*D)); f="main.tf"
elif kind=="paren":
    s=rep(lambda i:"locals {\n  a%d = %s1%s\n}\n"%(i,"("*D,")"*D)); f="main.tf"
elif kind=="tuple-wide":
    n=(size-30)//2; s="locals {\n  a = ["+"1,"*n+"]\n}\n"; f="main.tf"
elif kind=="tuple-empty":
    n=(size-30)//3; s="locals {\n  a = ["+"[],"*n+"]\n}\n"; f="main.tf"
elif kind=="object-wide":
    s=rep(lambda i:"a%d=1,"%i, "locals {\n  a = {", "}\n}\n"); f="main.tf"
elif kind=="attrs":
    s=rep(lambda i:"a%d=1\n"%i, "locals {\n", "}\n"); f="main.tf"
elif kind=="operators":
    s=rep(lambda i:"locals {\n  a%d = %s1\n}\n"%(i,"-"*D)); f="main.tf"
elif kind=="binops":
    n=(size-30)//2; s="locals {\n  a = 1"+"+1"*n+"\n}\n"; f="main.tf"
elif kind=="json-deep":
    s=rep(lambda i:'"a%d":%s%s,'%(i,"["*D,"]"*D), '{"locals":{', '"z":1}}'); f="main.tf.json"
elif kind=="json-deep-obj":
    s=rep(lambda i:'"a%d":%s1%s,'%(i,'{"a":'*D,"}"*D), '{"locals":{', '"z":1}}'); f="main.tf.json"
elif kind=="json-wide":
    n=(size-30)//2; s='{"locals":{"a":['+"1,"*n+'1]}}'; f="main.tf.json"
elif kind=="json-wide-obj":
    s=rep(lambda i:'"a%d":1,'%i, '{"locals":{', '"z":1}}'); f="main.tf.json"
elif kind=="json-templates":
    n=(size-30)//4; s='{"locals":{"a":"'+"${a}"*n+'"}}'; f="main.tf.json"
elif kind=="blocks":
    s=rep(lambda i:"locals {}\n"); f="main.tf"
elif kind=="blocks-labeled":
    s=rep(lambda i:'variable "v%d" {}\n'%i); f="main.tf"
elif kind=="string":
    s='locals {\n  a = "'+"x"*(size-30)+'"\n}\n'; f="main.tf"
elif kind=="heredoc":
    line="x"*79+"\n"; s="locals {\n  a = <<EOT\n"+line*((size-40)//80)+"EOT\n}\n"; f="main.tf"
elif kind=="templates":
    n=(size-30)//4; s='locals {\n  a = "'+"${a}"*n+'"\n}\n'; f="main.tf"
elif kind=="template-dirs":
    n=(size-30)//16; s='locals {\n  a = "'+"%{if a}x%{endif}"*n+'"\n}\n'; f="main.tf"
elif kind=="cdktf":
    def r(i):
        return ('resource "aws_instance" "web_%d" {\n  ami           = "${data.aws_ami.ubuntu.id}"\n  instance_type = "t3.micro"\n  subnet_id     = "${aws_subnet.s%d.id}"\n  tags = {\n    "Name"        = "web-%d"\n    "Environment" = "prod"\n  }\n  depends_on = [aws_subnet.s%d]\n  lifecycle {\n    create_before_destroy = true\n  }\n}\n\n'%(i,i%50,i,i%50))
    s=rep(r,'terraform {\n  required_providers {\n    aws = {\n      source  = "hashicorp/aws"\n      version = "5.0.0"\n    }\n  }\n}\n\n'); f="main.tf"
elif kind=="cdktf-json":
    # cdktf synth writes an indented JSON document
    res={}; doc={"terraform":{"required_providers":{"aws":{"source":"hashicorp/aws","version":"5.0.0"}}},"resource":{"aws_instance":res}}
    unit=len(json.dumps({"web_0":{"ami":"${data.aws_ami.ubuntu.id}","instance_type":"t3.micro","subnet_id":"${aws_subnet.s0.id}","tags":{"Name":"web-0","Environment":"prod"},"depends_on":["aws_subnet.s0"],"lifecycle":{"create_before_destroy":True},"//":{"metadata":{"path":"stack/web_0","uniqueId":"web_0"}}}},indent=2))+40
    for i in range(size//unit):
        res["web_%d"%i]={"//":{"metadata":{"path":"stack/web_%d"%i,"uniqueId":"web_%d"%i}},"ami":"${data.aws_ami.ubuntu.id}","instance_type":"t3.micro","subnet_id":"${aws_subnet.s%d.id}"%(i%50),"tags":{"Name":"web-%d"%i,"Environment":"prod"},"depends_on":["aws_subnet.s%d"%(i%50)],"lifecycle":{"create_before_destroy":True}}
    s=json.dumps(doc,indent=2); f="cdk.tf.json"
else:
    sys.exit("unknown kind "+kind)
open(os.path.join(out,f),"w").write(s)
print(len(s))
